/* checks unsigned division and remainder on large values */
#include <stdio.h>
int main(void)
{
    unsigned a = 4000000000u, b = 7u;
    unsigned long c = 18000000000000000000ul, d = 1000000007ul;
    unsigned e = 0xFFFFFFFFu;
    e /= 0x10000u;
    printf("%u %u %lu %lu\n", a / b, a % b, c / d, c % d);
    printf("%u %u\n", e, 4294967295u % 1000u);
    return 0;
}
