/* checks bit manipulation idioms: popcount, lowest set bit, power-of-two test, bit reverse */
#include <stdio.h>
#include <stdint.h>
static int popcount(uint64_t x)
{
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}
static uint32_t reverse(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}
int main(void)
{
    uint32_t v = 0xB4u;
    printf("%d %d %u %d %d\n", popcount(0xFFFF0000FFFFULL), popcount(0), v & -v, (v & (v - 1)) == 0,
           (64 & 63) == 0);
    printf("%x %x\n", reverse(1), reverse(0x12345678u));
    return 0;
}
