/* checks a uint8_t loop counter wraps and narrow-type loop conditions */
#include <stdio.h>
#include <stdint.h>
int main(void)
{
    uint8_t i = 250;
    int iters = 0;
    do {
        i++;
        iters++;
    } while (i != 4);
    unsigned n = 5, count = 0;
    while (n-- > 0)
        count++;
    printf("%d %d %u %u\n", i, iters, count, n);
    return 0;
}
