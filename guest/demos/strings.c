/* strings.c: strcmp, memcmp and strlen over strings at every alignment in a hot loop; prints a
 * checksum. Built with glibc (`garm run --libc glibc guest/demos/strings.c 40`), whose
 * string functions load 8 or 16 bytes from unaligned addresses and are reached from `.iplt`
 * stubs by BR x17: the translation tier learns both (docs/translation-tier.md, item 12). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char buf[1 << 16];

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    char *s[64];
    for (int i = 0; i < 64; i++) {
        s[i] = buf + i * 1000 + (i * 7) % 16;
        int n = 40 + (i * 37) % 200;
        for (int k = 0; k < n; k++)
            s[i][k] = 'a' + (k * 13 + (k > n - 5 ? i : 0)) % 26;
        s[i][n] = 0;
    }
    unsigned long h = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 64; j += 3) {
                int c = strcmp(s[i], s[j]);
                h = h * 31 + (c < 0 ? 1 : c > 0 ? 2 : 3);
                h += strlen(s[(i + j) & 63]);
                h += memcmp(s[i], s[j], 32) < 0;
            }
    printf("strings: %lu\n", h);
    return 0;
}
