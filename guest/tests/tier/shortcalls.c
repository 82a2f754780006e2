/* shortcalls.c: a hot function with a loop of a few trips, called from a loop the translator
 * refuses (an atomic add: a load/store-exclusive pair). Translated, each call would enter and
 * leave translated code for ~20 instructions (a dispatch pair each): the tier weighs it in the
 * interpreter and leaves it interpreted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t calls;
/* Read at each call: the compiler cannot unroll the loop away. */
static volatile unsigned trips = 3;

__attribute__((noinline)) static uint64_t mix(uint64_t x)
{
    unsigned k = trips;
    for (unsigned i = 0; i < k; i++)
        x = x * 6364136223846793005ull + (x >> 7);
    return x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    uint64_t x = 1;
    for (long i = 0; i < n; i++) {
        x = mix(x);
        __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    }
    printf("%llu %llu\n", (unsigned long long)x, (unsigned long long)calls);
    return 0;
}
