/* N-queens by backtracking with bitmasks, n = 1..8, plus the first solution for 8. */
#include <stdio.h>

static int first[16], have;
static int cur[16];

static long solve(int n, int row, unsigned cols, unsigned d1, unsigned d2)
{
    if (row == n) {
        if (!have) { for (int i = 0; i < n; i++) first[i] = cur[i]; have = 1; }
        return 1;
    }
    long c = 0;
    unsigned avail = ~(cols | d1 | d2) & ((1u << n) - 1);
    while (avail) {
        unsigned bit = avail & -avail;
        avail ^= bit;
        cur[row] = __builtin_ctz(bit);
        c += solve(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
    return c;
}

int main(void)
{
    for (int n = 1; n <= 8; n++) {
        have = 0;
        printf("queens(%d) = %ld\n", n, solve(n, 0, 0, 0, 0));
    }
    for (int r = 0; r < 8; r++) {
        for (int c = 0; c < 8; c++) putchar(first[r] == c ? 'Q' : '.');
        putchar('\n');
    }
    return 0;
}
