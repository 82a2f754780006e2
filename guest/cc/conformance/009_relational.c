/* checks < <= > >= yield 0 or 1 for ints */
#include <stdio.h>
int main(void)
{
    int a = 3, b = -5;
    long c = -1, d = 1L << 40;
    printf("%d %d %d %d\n", a < b, a <= b, a > b, a >= b);
    printf("%d %d %d %d\n", a < a, a <= a, b > b, b >= b);
    printf("%d %d %d\n", c < d, d > a, (a < b) + (b < a));
    return 0;
}
