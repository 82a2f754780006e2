/* libc_strings.c: a real libc's vectorised string and memory functions (glibc and musl pick
 * AdvSIMD versions) over every alignment and many lengths; a checksum per function is printed,
 * and garm must print what qemu-aarch64 prints (tests/simd.rs). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static char buf[512] __attribute__((aligned(64)));
static char dst[512] __attribute__((aligned(64)));

/* noinline: the loops around it stay scalar, so only the libc's own vector code runs. */
__attribute__((noinline)) static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

int main(void)
{
    uint64_t h[12] = {0};
    for (int align = 0; align < 32; align++) {
        for (int len = 0; len < 80; len += (len < 20 ? 1 : 7)) {
            for (int i = 0; i < 512; i++)
                buf[i] = (char)('a' + mix(i * 7 + len, 0) % 26);
            char *s = buf + align;
            s[len] = 0;
            h[0] = mix(h[0], strlen(s));
            h[1] = mix(h[1], (uint64_t)(strchrnul(s, 'q') - s));
            char *c = strchr(s, 'k');
            h[2] = mix(h[2], c ? (uint64_t)(c - s) : 999);
            void *m = memchr(s, 'z', len);
            h[3] = mix(h[3], m ? (uint64_t)((char *)m - s) : 999);
            memset(dst, 0, sizeof dst);
            memcpy(dst + (align ^ 5), s, len + 1);
            h[4] = mix(h[4], (uint64_t)strcmp(dst + (align ^ 5), s));
            dst[(align ^ 5) + len / 2] ^= 1;
            int r = strcmp(dst + (align ^ 5), s);
            h[5] = mix(h[5], (uint64_t)(r > 0) - (r < 0));
            r = memcmp(dst + (align ^ 5), s, len);
            h[6] = mix(h[6], (uint64_t)(r > 0) - (r < 0));
            memset(dst + align, 'x' + (len & 1), len);
            for (int i = 0; i < 200; i++)
                h[7] = mix(h[7], (unsigned char)dst[i]);
            strcpy(dst + 3, s);
            h[8] = mix(h[8], strlen(dst + 3));
            memmove(dst + 1, dst + 3, len);
            for (int i = 0; i < len + 4; i++)
                h[9] = mix(h[9], (unsigned char)dst[i]);
            h[10] = mix(h[10], strnlen(s, len / 2 + 1));
            char *rr = strrchr(s, 'e');
            h[11] = mix(h[11], rr ? (uint64_t)(rr - s) : 999);
        }
    }
    const char *names[12] = {"strlen", "strchrnul", "strchr", "memchr", "memcpy+strcmp", "strcmp",
                             "memcmp", "memset", "strcpy", "memmove", "strnlen", "strrchr"};
    for (int i = 0; i < 12; i++)
        printf("%-14s %016llx\n", names[i], (unsigned long long)h[i]);
    printf("%s %d %zu\n", "printf", 42, sizeof(long));
    return 0;
}
