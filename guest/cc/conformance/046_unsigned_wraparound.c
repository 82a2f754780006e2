/* checks unsigned int, short and long arithmetic wraps modulo 2^N */
#include <stdio.h>
#include <limits.h>
int main(void)
{
    unsigned a = UINT_MAX;
    a += 2;
    unsigned b = 0;
    b -= 3;
    unsigned long c = ULONG_MAX;
    c *= 3;
    unsigned short d = 65535;
    d = d + 1;
    printf("%u %u %lu %u %u\n", a, b, c, d, 3000000000u * 3u);
    return 0;
}
