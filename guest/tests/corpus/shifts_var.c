/* Shifts by variable amounts at every width, arithmetic and logical, amounts from 0 to width-1. */
#include <stdio.h>
#include <stdint.h>

static volatile uint64_t seed = 0x9e3779b97f4a7c15UL;

int main(void)
{
    uint64_t x = seed, acc = 0;
    for (unsigned s = 0; s < 64; s++) {
        uint64_t l = x << s, r = x >> s;
        int64_t ar = (int64_t)x >> s;
        uint32_t w = (uint32_t)x, wl = w << (s & 31), wr = w >> (s & 31);
        int32_t war = (int32_t)w >> (s & 31);
        uint16_t h = (uint16_t)x;
        int16_t sh = (int16_t)h;
        int hs = (int)(s & 15);
        acc ^= l ^ (r << 1) ^ (uint64_t)ar ^ wl ^ ((uint64_t)wr << 32) ^ (uint32_t)war;
        acc += (uint16_t)(h << hs) + (uint16_t)(sh >> hs) + (uint8_t)((uint8_t)x >> (s & 7));
        if (s % 8 == 0)
            printf("s=%2u l=%016lx r=%016lx ar=%016lx w=%08x/%08x/%08x\n", s, l, r, (uint64_t)ar,
                   wl, wr, (uint32_t)war);
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    }
    printf("acc=%016lx\n", acc);
    return 0;
}
