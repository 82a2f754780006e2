/* bytes.c: loops of two byte or halfword stores per trip, a runtime distance apart (the same
 * byte, the same word, the next word, the next page), for the translation tier: each store
 * reads, merges and writes its whole word, so the second must see the first's where both
 * fall in one word, and a page crossing must be translated again. Prints a hash of each
 * array. */
#include <stdio.h>
#include <stdlib.h>

#define N 20000

static unsigned hash(const unsigned char *p, long n)
{
    unsigned h = 2166136261u;
    for (long i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

__attribute__((noinline)) static void bytes(unsigned char *a, long n, long k, long step)
{
    for (long i = 0; i < n; i += step) {
        a[i] = (unsigned char)(i * 7 + 1);
        a[i + k] = (unsigned char)(i >> 2);
    }
}

__attribute__((noinline)) static void halves(unsigned short *a, long n, long k, long step)
{
    for (long i = 0; i < n; i += step) {
        a[i] = (unsigned short)(i * 13 + 5);
        a[i + k] = (unsigned short)(i ^ 0x5a5a);
    }
}

int main(int argc, char **argv)
{
    long dist[] = {0, 1, 2, 3, 4, 5, 4093, 4096};
    long steps[] = {1, 3, 64, 1031};
    unsigned char *a = calloc(N + 8192, 1);
    unsigned short *h = calloc(N + 8192, 2);
    if (!a || !h)
        return 1;
    (void)argv;
    for (unsigned d = 0; d < sizeof dist / sizeof dist[0]; d++) {
        for (unsigned s = 0; s < sizeof steps / sizeof steps[0]; s++) {
            long k = dist[d] + (argc > 5);
            bytes(a, N, k, steps[s]);
            halves(h, N / 2, k, steps[s]);
            printf("k %ld step %ld: bytes %08x halves %08x\n", k, steps[s], hash(a, N + 8192),
                   hash((unsigned char *)h, 2 * (N + 8192)));
        }
    }
    return 0;
}
