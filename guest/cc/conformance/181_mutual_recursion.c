/* checks mutual recursion through a forward declaration */
#include <stdio.h>
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
int main(void)
{
    printf("%d %d %d %d\n", is_even(10), is_odd(10), is_even(77), is_odd(77));
    return 0;
}
