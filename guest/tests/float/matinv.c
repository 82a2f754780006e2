/* Gauss-Jordan inversion of a 6x6 Hilbert-like matrix in double and float; residual of A*inv(A). */
#include <math.h>
#include <stdio.h>
#define N 6
static void inv(double a[N][N], double r[N][N])
{
    double m[N][2 * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 2 * N; j++) m[i][j] = j < N ? a[i][j] : (j - N == i);
    for (int c = 0; c < N; c++) {
        int p = c;
        for (int i = c + 1; i < N; i++) if (fabs(m[i][c]) > fabs(m[p][c])) p = i;
        for (int j = 0; j < 2 * N; j++) { double t = m[c][j]; m[c][j] = m[p][j]; m[p][j] = t; }
        double d = m[c][c];
        for (int j = 0; j < 2 * N; j++) m[c][j] /= d;
        for (int i = 0; i < N; i++)
            if (i != c) { double f = m[i][c]; for (int j = 0; j < 2 * N; j++) m[i][j] -= f * m[c][j]; }
    }
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) r[i][j] = m[i][j + N];
}
int main(void)
{
    double a[N][N], r[N][N];
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) a[i][j] = 1.0 / (i + j + 1) + (i == j);
    inv(a, r);
    double res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++) s += a[i][k] * r[k][j];
            res = fmax(res, fabs(s - (i == j)));
        }
    for (int i = 0; i < N; i++) printf("%.15e %a\n", r[i][i], r[i][(i + 1) % N]);
    printf("residual %.3e\n", res);
    float fa = 0;
    for (int i = 0; i < N; i++) fa += (float)r[i][0] * (float)a[0][i];
    printf("float %.9g\n", (double)fa);
    return 0;
}
