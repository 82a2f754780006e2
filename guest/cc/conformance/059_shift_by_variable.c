/* checks shifts by a variable amount on every width */
#include <stdio.h>
int main(void)
{
    for (int n = 0; n < 64; n += 9) {
        unsigned long long x = 1ULL << n;
        long y = -1L << n;
        printf("%d %llx %lx", n, x, y);
        if (n < 32)
            printf(" %x %d", 1u << n, (-2048) >> (n % 12));
        printf("\n");
    }
    return 0;
}
