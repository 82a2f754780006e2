/* Classic bit tricks: reverse bits, next power of two, gray code, lowest set bit, masks. */
#include <stdio.h>
#include <stdint.h>

static uint32_t rev32(uint32_t v)
{
    v = ((v >> 1) & 0x55555555) | ((v & 0x55555555) << 1);
    v = ((v >> 2) & 0x33333333) | ((v & 0x33333333) << 2);
    v = ((v >> 4) & 0x0F0F0F0F) | ((v & 0x0F0F0F0F) << 4);
    v = ((v >> 8) & 0x00FF00FF) | ((v & 0x00FF00FF) << 8);
    return (v >> 16) | (v << 16);
}

static uint32_t next_pow2(uint32_t v)
{
    v--;
    v |= v >> 1; v |= v >> 2; v |= v >> 4; v |= v >> 8; v |= v >> 16;
    return v + 1;
}

static int popc(uint32_t v)
{
    int c = 0;
    for (; v; v &= v - 1)
        c++;
    return c;
}

int main(void)
{
    uint32_t vals[] = {1, 2, 3, 5, 17, 100, 255, 256, 1000, 65535, 65537, 0x12345678, 0x80000000u, 0xdeadbeef};
    for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        uint32_t v = vals[i];
        uint32_t g = v ^ (v >> 1), ig = g;
        for (uint32_t s = 1; s < 32; s <<= 1)
            ig ^= ig >> s;
        printf("%08x rev=%08x np2=%08x gray=%08x ungray=%08x low=%08x pc=%d sign=%d abs=%d\n", v,
               rev32(v), next_pow2(v), g, ig, v & -v, popc(v), ((int32_t)v >> 31) | (int)(-(int32_t)v >> 31 & 1),
               ((int32_t)v ^ ((int32_t)v >> 31)) - ((int32_t)v >> 31));
    }
    /* enumerate all 5-bit subsets of 8 with Gosper's hack */
    unsigned count = 0, x = 0x1f, acc = 0;
    while (x < 256) {
        acc = acc * 3 + x;
        count++;
        unsigned c = x & -x, r = x + c;
        x = (((r ^ x) >> 2) / c) | r;
    }
    printf("gosper: %u subsets acc=%u\n", count, acc);
    return 0;
}
