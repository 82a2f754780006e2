/* popcount, clz, ctz, byte swaps and rotates at 32 and 64 bits. */
#include <stdio.h>
#include <stdint.h>

static uint32_t rotl32(uint32_t x, unsigned r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
static uint64_t rotr64(uint64_t x, unsigned r) { return (x >> (r & 63)) | (x << ((64 - r) & 63)); }

int main(void)
{
    uint64_t x = 0x0123456789abcdefUL;
    uint64_t sum = 0;
    for (int i = 0; i < 40; i++) {
        uint32_t w = (uint32_t)(x >> 17);
        int pc = __builtin_popcountll(x), pw = __builtin_popcount(w);
        int lz = x ? __builtin_clzll(x) : 64, tz = x ? __builtin_ctzll(x) : 64;
        int lzw = w ? __builtin_clz(w) : 32, tzw = w ? __builtin_ctz(w) : 32;
        uint64_t bs = __builtin_bswap64(x);
        uint32_t bw = __builtin_bswap32(w);
        uint16_t b16 = __builtin_bswap16((uint16_t)w);
        if (i % 4 == 0)
            printf("%016lx pc=%2d lz=%2d tz=%2d | %08x pc=%2d lz=%2d tz=%2d bs=%016lx %08x %04x rot=%08x %016lx\n",
                   x, pc, lz, tz, w, pw, lzw, tzw, bs, bw, b16, rotl32(w, i), rotr64(x, i * 3));
        sum += pc + lz * 3 + tz * 5 + bs + bw + rotl32(w, i) + rotr64(x, i);
        x = (x ^ (x << 13)) ^ ((x ^ (x << 13)) >> 7);
        x ^= x << 17;
        x &= ~((uint64_t)1 << (i % 64)) | (i & 1 ? ~0UL : 0);
    }
    printf("parity=%d ffs=%d clrsb=%d sum=%016lx\n", __builtin_parityll(sum), __builtin_ffsll(sum),
           __builtin_clrsbll((long long)sum), sum);
    return 0;
}
