/* malloc/free/realloc/calloc stress with checksums of every live block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define SLOTS 64
static unsigned char *blk[SLOTS];
static size_t sz[SLOTS];
static uint8_t tag[SLOTS];

static uint32_t rng = 2463534242u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static int check(int i)
{
    for (size_t k = 0; k < sz[i]; k++)
        if (blk[i][k] != (uint8_t)(tag[i] + k)) return 0;
    return 1;
}

static void fill(int i)
{
    for (size_t k = 0; k < sz[i]; k++) blk[i][k] = (uint8_t)(tag[i] + k);
}

int main(void)
{
    int bad = 0;
    unsigned long allocs = 0, frees = 0, reallocs = 0, bytes = 0;
    for (int round = 0; round < 1000; round++) {
        int i = next() % SLOTS;
        uint32_t r = next();
        if (blk[i]) {
            if (!check(i)) bad++;
            if (r % 3 == 0) {
                size_t ns = 1 + next() % (r & 64 ? 600 : 40);
                unsigned char *p = realloc(blk[i], ns);
                if (!p) { printf("realloc failed\n"); return 1; }
                size_t keep = ns < sz[i] ? ns : sz[i];
                for (size_t k = 0; k < keep; k++) if (p[k] != (uint8_t)(tag[i] + k)) bad++;
                blk[i] = p;
                sz[i] = ns;
                fill(i);
                reallocs++;
            } else {
                free(blk[i]);
                blk[i] = 0;
                frees++;
            }
        } else {
            sz[i] = 1 + next() % (r & 1 ? 1000 : 24);
            tag[i] = (uint8_t)r;
            if (r & 2) {
                blk[i] = calloc(sz[i], 1);
                for (size_t k = 0; blk[i] && k < sz[i]; k++) if (blk[i][k]) bad++;
            } else {
                blk[i] = malloc(sz[i]);
            }
            if (!blk[i]) { printf("malloc failed\n"); return 1; }
            fill(i);
            allocs++;
            bytes += sz[i];
        }
        if (round % 250 == 249) {
            uint32_t sum = 0;
            int live = 0;
            for (int k = 0; k < SLOTS; k++)
                if (blk[k]) { live++; for (size_t j = 0; j < sz[k]; j++) sum = sum * 31 + blk[k][j]; }
            printf("round %4d: live %2d checksum %08x bad %d\n", round + 1, live, sum, bad);
        }
    }
    for (int k = 0; k < SLOTS; k++) if (blk[k]) { if (!check(k)) bad++; free(blk[k]); }
    printf("allocs %lu frees %lu reallocs %lu bytes %lu bad %d\n", allocs, frees, reallocs, bytes, bad);
    /* big blocks, alignment */
    int misaligned = 0;
    for (int k = 1; k < 20; k++) {
        void *p = malloc(k * 1000);
        if ((uintptr_t)p % 16) misaligned++;
        memset(p, k, k * 1000);
        free(p);
    }
    printf("misaligned %d\n", misaligned);
    return bad != 0;
}
