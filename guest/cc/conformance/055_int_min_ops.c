/* checks operations around INT_MIN and LLONG_MAX without overflow */
#include <stdio.h>
#include <limits.h>
int main(void)
{
    int a = INT_MIN;
    long long b = LLONG_MAX;
    printf("%d %d %d\n", a + 1, a / 2, -(a + 1));
    printf("%lld %lld\n", b - 1, b / 1000000007LL);
    printf("%ld\n", (long)a * 2);
    printf("%u\n", (unsigned)a);
    return 0;
}
