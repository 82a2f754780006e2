/* checks calls with more than eight integer arguments (some passed on the stack) */
#include <stdio.h>
static long sum10(int a, int b, int c, int d, int e, int f, int g, int h, int i, long j)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}
int main(void)
{
    printf("%ld\n", sum10(1, 2, 3, 4, 5, 6, 7, 8, 9, 10000000000L));
    return 0;
}
