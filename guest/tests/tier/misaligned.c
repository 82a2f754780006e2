/* misaligned.c: a hot loop of loads and stores that are never aligned to their size but never
 * leave their page: 8-, 4- and 2-byte loads (signed too), a pair of doublewords, a 16-byte Q
 * load, a pair of them and LD1 of three, at odd offsets that change every trip (and LD1 of four
 * and ST1 of two, aligned); then the same sizes stored at odd offsets and read back.
 * Translated, each leaves its region until the host sees it fail and translates it for any
 * alignment; from then on the loop runs translated. Checksum printed; the tiers and qemu must
 * agree. */
#include <stdint.h>
#include <stdio.h>

static uint8_t buf[4096] __attribute__((aligned(4096)));
static uint64_t out[8] __attribute__((aligned(16)));
static uint8_t obuf[4096] __attribute__((aligned(4096)));

__attribute__((noinline)) static uint64_t walk(int trips)
{
    uint64_t h = 0;
    for (int i = 0; i < trips; i++) {
        /* Offsets 1..3001 in steps of 16 plus 1, 3, 5 or 7 (and 2 more): misaligned for every
         * size, and the farthest access (64 bytes on) stays inside the page. */
        const uint8_t *q = buf + 1 + ((i * 16) % 3000) + 2 * (i & 3);
        uint64_t d, a, b, v0, v1, v2;
        uint32_t w;
        int64_t sw, sh;
        __asm__ volatile("ldr %0, [%9]\n"
                         "ldur %w1, [%9, #2]\n"
                         "ldursw %x2, [%9, #6]\n"
                         "ldursh %x3, [%9, #9]\n"
                         "ldp %4, %5, [%10]\n"
                         "ldur q16, [%9, #5]\n"
                         "ldp q17, q18, [%10, #32]\n"
                         "fmov %6, d16\n"
                         "mov %7, v17.d[1]\n"
                         "mov %8, v18.d[1]\n"
                         /* LD1 of three registers, misaligned; of four, aligned; ST1 of two. */
                         "ld1 {v19.16b, v20.16b, v21.16b}, [%9]\n"
                         "ld1 {v22.8b, v23.8b, v24.8b, v25.8b}, [%11]\n"
                         "eor v19.16b, v19.16b, v21.16b\n"
                         "eor v22.8b, v22.8b, v25.8b\n"
                         "mov v22.d[1], v24.d[0]\n"
                         "st1 {v19.16b, v20.16b}, [%12]\n"
                         "str q22, [%12, #32]\n"
                         : "=&r"(d), "=&r"(w), "=&r"(sw), "=&r"(sh), "=&r"(a), "=&r"(b),
                           "=&r"(v0), "=&r"(v1), "=&r"(v2)
                         : "r"(q), "r"(q + 2), "r"(buf + 64 * (i & 31)), "r"(out)
                         : "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
                           "v25", "memory");
        h = h * 31 + d + w + (uint64_t)sw + (uint64_t)sh + (a ^ b) + v0 + v1 + v2;
        for (int k = 0; k < 6; k++)
            h = h * 7 + out[k];
        /* The same values stored at odd addresses (8, 4 and 2 bytes, a doubleword pair, a Q
         * register, a Q pair, ST1 of two), then read back aligned. */
        uint8_t *o = obuf + 1 + ((i * 24) % 3000) + (i & 7);
        __asm__ volatile("str %0, [%6]\n"
                         "stur %w1, [%6, #9]\n"
                         "sturh %w2, [%6, #14]\n"
                         "stp %3, %4, [%7]\n"
                         "stur q16, [%6, #33]\n"
                         "stp q17, q18, [%8]\n"
                         "st1 {v19.16b, v20.16b}, [%9]\n"
                         :
                         : "r"(d), "r"(w), "r"(sh), "r"(a), "r"(b), "r"(v0), "r"(o), "r"(o + 17),
                           "r"(o + 50), "r"(o + 90)
                         : "memory");
        const uint64_t *back = (const uint64_t *)((uintptr_t)o & ~(uintptr_t)7);
        for (int k = 0; k < 16; k++)
            h = h * 5 + back[k];
    }
    return h;
}

int main(void)
{
    for (int i = 0; i < (int)sizeof buf; i++)
        buf[i] = (uint8_t)(i * 151 + (i >> 7));
    printf("misaligned: %016llx\n", (unsigned long long)walk(60000));
    return 0;
}
