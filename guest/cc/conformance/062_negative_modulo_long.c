/* checks long and long long division by negative divisors */
#include <stdio.h>
int main(void)
{
    long a = -9000000000L, b = 7;
    long long c = 9000000000LL, d = -11;
    printf("%ld %ld %lld %lld\n", a / b, a % b, c / d, c % d);
    unsigned long ua = 9000000000UL;
    printf("%lu %lu\n", ua / 7, ua % 7);
    return 0;
}
