// The parameter sweep's guest: the Collatz chain from n = argv[1], printed as "n steps peak";
// exit status 0.
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    unsigned long n = strtoul(argv[1], 0, 10), peak = n, steps = 0;
    for (unsigned long x = n; x > 1; steps++) {
        x = x & 1 ? 3 * x + 1 : x / 2;
        if (x > peak)
            peak = x;
    }
    printf("%lu %lu %lu\n", n, steps, peak);
    return 0;
}
