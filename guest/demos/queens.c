/* queens.c: counts the placements of N queens on an N x N board by plain recursion over an
 * array (the c-testsuite style: deep calls and returns, many branches), for the benchmark. */
#include <stdio.h>
#include <stdlib.h>

static int col[32];

static int safe(int row, int c)
{
    for (int r = 0; r < row; r++) {
        int d = col[r] - c;
        if (d == 0 || d == row - r || d == r - row)
            return 0;
    }
    return 1;
}

static long place(int n, int row)
{
    if (row == n)
        return 1;
    long count = 0;
    for (int c = 0; c < n; c++) {
        if (safe(row, c)) {
            col[row] = c;
            count += place(n, row + 1);
        }
    }
    return count;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 16) {
        printf("usage: queens N (1-16)\n");
        return 2;
    }
    long k = place(n, 0);
    printf("queens(%d) = %ld\n", n, k);
    return 0;
}
