/* Collatz sequences: longest chain under a bound and peak values, with 64-bit intermediate. */
#include <stdio.h>
#include <stdint.h>

int main(void)
{
    int best = 0;
    uint64_t best_n = 0, peak = 0, peak_n = 0;
    unsigned long total = 0;
    for (uint64_t n = 1; n < 2000; n++) {
        uint64_t x = n;
        int steps = 0;
        while (x != 1) {
            x = x & 1 ? 3 * x + 1 : x >> 1;
            if (x > peak) { peak = x; peak_n = n; }
            steps++;
        }
        total += steps;
        if (steps > best) { best = steps; best_n = n; printf("new record: %lu takes %d steps\n", n, steps); }
    }
    printf("longest %lu (%d steps), peak %lu from %lu, total %lu\n", best_n, best, peak, peak_n, total);
    return 0;
}
