/* Sieve of Eratosthenes on a bit array; prime counts, twin primes and a digest of the primes. */
#include <stdio.h>
#include <stdint.h>

#define N 30000
static uint64_t bits[N / 64 + 1];

int main(void)
{
    for (uint32_t i = 2; i * i < N; i++)
        if (!(bits[i / 64] >> (i % 64) & 1))
            for (uint32_t j = i * i; j < N; j += i) bits[j / 64] |= 1UL << (j % 64);
    int count = 0, twins = 0, last = 0;
    uint32_t h = 0;
    int marks[] = {10, 100, 1000, 10000, N};
    int mi = 0;
    for (int i = 2; i < N; i++) {
        while (mi < 5 && i >= marks[mi]) printf("pi(%d) = %d\n", marks[mi++], count);
        if (!(bits[i / 64] >> (i % 64) & 1)) {
            count++;
            if (i - last == 2) twins++;
            last = i;
            h = h * 2654435761u + (uint32_t)i;
        }
    }
    printf("pi(%d) = %d, twins %d, largest %d, digest %08x\n", N, count, twins, last, h);
    return 0;
}
