/* checks a parameter declared with function type adjusts to a function pointer */
#include <stdio.h>
static int apply(int f(int), int x) { return f(f(x)); }
static int triple(int x) { return 3 * x; }
static int plus1(int x) { return x + 1; }
int main(void)
{
    printf("%d %d\n", apply(triple, 2), apply(plus1, 2));
    return 0;
}
