/* bitsel.c: bit-field inserts (BFI, BFXIL, MOVK) and sign extensions (SXTW, SBFX) whose
 * destination is also a source, under data-dependent branches in a hot loop: the shapes
 * lavapipe's LLVM can miscompile on AVX-512 hosts when translated code gives it constant
 * masks (docs/translation-tier.md, "An LLVM miscompile"). Whether the miscompile shows
 * depends on the whole shader; this program did not show it before the workaround (fuzz seed
 * 313 did), so it checks the workaround's arithmetic. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline uint64_t bfxil_32_14(uint64_t d, uint64_t s)
{
    __asm__("bfxil %0, %1, #32, #14" : "+r"(d) : "r"(s));
    return d;
}

static inline uint64_t bfi_8_12(uint64_t d, uint64_t s)
{
    __asm__("bfi %0, %1, #8, #12" : "+r"(d) : "r"(s));
    return d;
}

static inline uint32_t bfi_w_3_7(uint32_t d, uint32_t s)
{
    __asm__("bfi %w0, %w1, #3, #7" : "+r"(d) : "r"(s));
    return d;
}

static inline uint64_t sxtw_self(uint64_t x)
{
    __asm__("sxtw %0, %w0" : "+r"(x));
    return x;
}

static inline uint64_t sbfx_self(uint64_t x)
{
    __asm__("sbfx %0, %0, #0, #13" : "+r"(x));
    return x;
}

static inline uint64_t movk_16(uint64_t x)
{
    __asm__("movk %0, #0x1234, lsl #16" : "+r"(x));
    return x;
}

__attribute__((noinline)) static uint64_t run(uint64_t s, long n)
{
    uint64_t a = 1, b = 2, c = 3, d = 4;
    uint32_t w = 5;
    for (long i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if (s >> 63)
            a = bfxil_32_14(a, s);
        else
            b = bfi_8_12(b, s);
        if ((s >> 40) & 1)
            c = sxtw_self(c + (s >> 7));
        else
            d = movk_16(d ^ s);
        if (((s >> 20) & 3) == 0)
            w = bfi_w_3_7(w, (uint32_t)(s >> 33));
        else if (((s >> 20) & 3) == 1)
            c = sbfx_self(c ^ (s >> 17));
        a = (a << 1 | a >> 63) ^ b;
        b += c ^ d;
        d ^= w;
    }
    return a ^ b * 3 ^ c * 5 ^ d * 7 ^ w;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    for (uint64_t seed = 1; seed <= 3; seed++)
        printf("seed %llu: %016llx\n", (unsigned long long)seed,
               (unsigned long long)run(seed, n));
    return 0;
}
