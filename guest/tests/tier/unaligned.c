/* unaligned.c: a small leaf function called from a hot loop (the translator runs it inline in
 * the caller's region), and loads not aligned to their size in hot loops (8-, 4- and 2-byte
 * loads, signed and unsigned, pairs of words and doublewords, at every byte offset, up to the
 * last byte of a page and across it: the interpreter's, access by access). Checksums printed;
 * the tiers and qemu must agree. */
#include <stdint.h>
#include <stdio.h>

/* Types that may lie at any address: plain loads, not memcpy calls. */
typedef uint64_t u64u __attribute__((aligned(1)));
typedef uint32_t u32u __attribute__((aligned(1)));
typedef uint16_t u16u __attribute__((aligned(1)));
typedef int32_t s32u __attribute__((aligned(1)));
typedef int16_t s16u __attribute__((aligned(1)));

static uint8_t buf[3 * 4096] __attribute__((aligned(4096)));

__attribute__((noinline)) static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

__attribute__((noinline)) static uint64_t loads(const uint8_t *p, int n)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++) {
        const uint8_t *q = p + i;
        uint64_t d = *(const volatile u64u *)q;
        uint32_t w = *(const volatile u32u *)(q + 1);
        uint16_t s = *(const volatile u16u *)(q + 3);
        int32_t sw = *(const volatile s32u *)(q + 2);
        int16_t ss = *(const volatile s16u *)(q + 5);
        h = h * 31 + d + w + s + (uint64_t)(int64_t)sw + (uint64_t)(int64_t)ss;
    }
    return h;
}

__attribute__((noinline)) static uint64_t pairs(const uint8_t *p, int n)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++) {
        uint64_t a, b;
        uint32_t c, d;
        const uint8_t *q = p + i;
        __asm__ volatile("ldp %0, %1, [%4]\n"
                         "ldp %w2, %w3, [%5, #4]\n"
                         : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d)
                         : "r"(q), "r"(q + 3)
                         : "memory");
        h = h * 33 + (a ^ b) + c + d;
    }
    return h;
}

__attribute__((noinline)) static uint64_t calls(int n)
{
    uint64_t h = 7;
    for (int i = 0; i < n; i++)
        h = mix(h, (uint64_t)i % 26);
    return h;
}

int main(void)
{
    for (int i = 0; i < (int)sizeof buf; i++)
        buf[i] = (uint8_t)(i * 131 + (i >> 8));
    uint64_t h = 0;
    for (int r = 0; r < 40; r++) {
        /* Every offset of a run inside a page, then runs that end at and cross a page end. */
        h = mix(h, loads(buf + (r & 7), 900));
        h = mix(h, loads(buf + 4096 - 40 + (r & 7), 24));
        h = mix(h, loads(buf + 4096 - 16, 24));
        h = mix(h, pairs(buf + 8192 + r, 500));
        h = mix(h, pairs(buf + 8192 - 24, 12));
        h = mix(h, calls(3000));
        buf[r * 13] ^= (uint8_t)h;
    }
    printf("unaligned: %016llx\n", (unsigned long long)h);
    return 0;
}
