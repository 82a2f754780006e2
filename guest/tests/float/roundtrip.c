/* printf %.17g and %a of many doubles read back with strtod (and %.9g floats with strtof): every
 * value must round-trip; the printed text is compared with qemu's too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int bad = 0;
    for (int i = 0; i < 120; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t bits = x;
        if (i % 7 == 0) bits &= 0x800fffffffffffffull; /* subnormals */
        if (i % 11 == 0) bits = (bits & 0x000fffffffffffffull) | 0x4330000000000000ull;
        double d;
        memcpy(&d, &bits, 8);
        if (d != d) continue;
        char s1[64], s2[64];
        snprintf(s1, sizeof s1, "%.17g", d);
        snprintf(s2, sizeof s2, "%a", d);
        double r1 = strtod(s1, 0), r2 = strtod(s2, 0);
        bad += r1 != d || r2 != d;
        float f = (float)d;
        char s3[64];
        snprintf(s3, sizeof s3, "%.9g", (double)f);
        bad += strtof(s3, 0) != f;
        if (i % 10 == 0) printf("%s %s %s\n", s1, s2, s3);
    }
    printf("bad %d\n", bad);
    return 0;
}
