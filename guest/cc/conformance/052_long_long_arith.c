/* checks long long arithmetic beyond 32 bits */
#include <stdio.h>
int main(void)
{
    long long a = 123456789012LL, b = -987654321LL;
    printf("%lld %lld %lld\n", a + b, a - b, a * 3);
    printf("%lld %lld\n", a / b, a % b);
    unsigned long long c = 0xFFFFFFFFFFFFFFFFULL;
    printf("%llu %llx\n", c / 3, c ^ 0x5555ULL);
    return 0;
}
