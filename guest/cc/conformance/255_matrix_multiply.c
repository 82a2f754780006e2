/* checks nested loops over 2-D arrays (integer matrix multiplication) */
#include <stdio.h>
#define N 4
static void mul(long a[N][N], long b[N][N], long c[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            long s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}
int main(void)
{
    long a[N][N], b[N][N], c[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = i + j;
            b[i][j] = i == j ? 2 : (i - j);
        }
    mul(a, b, c);
    for (int i = 0; i < N; i++)
        printf("%ld %ld %ld %ld\n", c[i][0], c[i][1], c[i][2], c[i][3]);
    return 0;
}
