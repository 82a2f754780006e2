/* checks calling through function pointers, with and without explicit dereference */
#include <stdio.h>
static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
int main(void)
{
    int (*f)(int) = twice;
    int a = f(5);
    f = &square;
    int b = (*f)(5);
    int c = (**f)(3);
    printf("%d %d %d %d\n", a, b, c, f == square);
    return 0;
}
