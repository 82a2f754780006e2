/* primes.c: sieve of Eratosthenes up to N (default 10000): count, last five primes, checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10000;
    if (n < 2) {
        printf("primes up to %ld: 0\n", n);
        return 0;
    }
    unsigned char *composite = calloc((size_t)n + 1, 1);
    if (!composite) {
        printf("out of memory\n");
        return 1;
    }
    for (long i = 2; i * i <= n; i++)
        if (!composite[i])
            for (long j = i * i; j <= n; j += i)
                composite[j] = 1;

    long count = 0;
    uint32_t sum = 0;  /* wraps: the checksum is the sum mod 2^32 */
    long last[5] = {0};
    for (long i = 2; i <= n; i++) {
        if (!composite[i]) {
            count++;
            sum += (uint32_t)i;
            last[count % 5] = i;  /* ring of the five most recent */
        }
    }
    printf("primes up to %ld: %ld\n", n, count);
    printf("last primes:");
    long k = count < 5 ? count : 5;
    for (long j = k - 1; j >= 0; j--)
        printf(" %ld", last[(count - j) % 5]);
    printf("\nchecksum: %u\n", sum);
    free(composite);
    return 0;
}
