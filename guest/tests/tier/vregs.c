/* vregs.c: whole V registers loaded and stored (LDR/STR/LDP/STP of B, H, S, D and Q, with
 * offset, pre- and post-index and register-offset addressing) in a hot loop, at every byte
 * alignment and across page boundaries: the VMEM instructions the translation tier takes
 * (a misaligned or page-crossing one is left to the interpreter). A load zeroes the bytes
 * above its size, which the Q stores after the narrow loads show. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SPAN 12288

/* Moves bytes from p to q through v0-v7; returns p after its post-index and pre-index. */
__attribute__((noinline)) static uint8_t *shuffle(uint8_t *p, uint8_t *q, uint64_t k)
{
    __asm__ volatile(
        "ldp q0, q1, [%0]\n"
        "ldr d2, [%0, #32]\n"
        "ldr s3, [%0, #40]\n"
        "ldr h4, [%0, #44]\n"
        "ldr b5, [%0, #46]\n"
        "ldr q6, [%0, %2]\n"
        "ldp d7, d6, [%0, #8]\n"
        "stp q1, q0, [%1]\n"
        "str q2, [%1, #32]\n"
        "str q3, [%1, #48]\n"
        "stp s4, s5, [%1, #64]\n"
        "str h6, [%1, #72]\n"
        "str b7, [%1, #74]\n"
        "str d6, [%1, #80]\n"
        "ldr q4, [%0, #16]!\n"
        "str q4, [%1, #96]!\n"
        "ldr s5, [%0], #4\n"
        "str s5, [%1], #-8\n"
        "stp q5, q4, [%1, #-32]\n"
        : "+r"(p), "+r"(q)
        : "r"(k)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "memory");
    return p;
}

int main(void)
{
    uint8_t *src = malloc(SPAN + 256);
    uint8_t *dst = malloc(SPAN + 256);
    if (!src || !dst)
        return 1;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < SPAN + 256; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        src[i] = (uint8_t)(seed >> 56);
        dst[i] = 0;
    }
    uint64_t sum = 0;
    for (int pass = 0; pass < 6; pass++) {
        /* Aligned to 16 mostly (translated); every fourth pass at odd offsets too (each
         * misaligned access is the interpreter's). */
        int step = pass % 4 == 3 ? 5 : 16;
        for (int o = 0; o < SPAN - 160; o += step) {
            uint8_t *p = shuffle(src + o, dst + 40 + ((o * 7) % (SPAN - 200)), (o & 15) * 4);
            sum = sum * 31 + (uint64_t)(p - src) + dst[40 + ((o * 7) % (SPAN - 200)) + (o % 100)];
        }
        for (int i = 0; i < SPAN + 256; i += 8)
            sum = sum * 1099511628211ull ^ *(uint64_t *)(dst + i);
    }
    printf("vregs: %016llx\n", (unsigned long long)sum);
    return 0;
}
