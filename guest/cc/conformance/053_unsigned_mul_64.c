/* checks 64-bit unsigned multiplication wraps and high-bit division */
#include <stdio.h>
int main(void)
{
    unsigned long long a = 0xFFFFFFFFFFFFFFFFULL, b = 0x123456789ULL;
    unsigned long long p = a * b;
    unsigned long long q = 0x8000000000000000ULL / 3;
    unsigned long long r = 0x8000000000000001ULL % 10;
    long long s = (long long)(0x8000000000000000ULL >> 1);
    printf("%llx %llu %llu %lld\n", p, q, r, s);
    return 0;
}
