/* Integer matrices: multiply, transpose, power (Fibonacci by matrix power mod p), determinant. */
#include <stdio.h>
#include <stdint.h>

#define N 12
static int64_t a[N][N], b[N][N], c[N][N];

static void mul(int64_t x[N][N], int64_t y[N][N], int64_t z[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int64_t s = 0;
            for (int k = 0; k < N; k++) s += x[i][k] * y[k][j];
            z[i][j] = s;
        }
}

static void fibm(uint64_t n, uint64_t p, uint64_t *out)
{
    uint64_t r[4] = {1, 0, 0, 1}, m[4] = {1, 1, 1, 0};
    while (n) {
        uint64_t t[4];
        if (n & 1) {
            t[0] = (r[0] * m[0] + r[1] * m[2]) % p; t[1] = (r[0] * m[1] + r[1] * m[3]) % p;
            t[2] = (r[2] * m[0] + r[3] * m[2]) % p; t[3] = (r[2] * m[1] + r[3] * m[3]) % p;
            for (int i = 0; i < 4; i++) r[i] = t[i];
        }
        t[0] = (m[0] * m[0] + m[1] * m[2]) % p; t[1] = (m[0] * m[1] + m[1] * m[3]) % p;
        t[2] = (m[2] * m[0] + m[3] * m[2]) % p; t[3] = (m[2] * m[1] + m[3] * m[3]) % p;
        for (int i = 0; i < 4; i++) m[i] = t[i];
        n >>= 1;
    }
    *out = r[1];
}

/* Bareiss fraction-free determinant (exact in integers). */
static int64_t det(int64_t m[N][N], int n)
{
    int64_t w[N][N], prev = 1;
    int sign = 1;
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) w[i][j] = m[i][j];
    for (int k = 0; k < n - 1; k++) {
        if (w[k][k] == 0) {
            int s = k + 1;
            while (s < n && w[s][k] == 0) s++;
            if (s == n) return 0;
            for (int j = 0; j < n; j++) { int64_t t = w[k][j]; w[k][j] = w[s][j]; w[s][j] = t; }
            sign = -sign;
        }
        for (int i = k + 1; i < n; i++)
            for (int j = k + 1; j < n; j++) w[i][j] = (w[i][j] * w[k][k] - w[i][k] * w[k][j]) / prev;
        prev = w[k][k];
    }
    return sign * w[n - 1][n - 1];
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) { a[i][j] = (i * 7 + j * 3) % 11 - 5; b[i][j] = (i == j) * 2 + (i + j) % 3 - 1; }
    mul(a, b, c);
    int64_t tr = 0, s = 0;
    for (int i = 0; i < N; i++) { tr += c[i][i]; for (int j = 0; j < N; j++) s = s * 3 + c[i][j]; }
    printf("trace %ld digest %ld c[3][5]=%ld\n", tr, s, c[3][5]);
    int64_t m4[N][N] = {{2, -1, 0, 3}, {1, 4, -2, 0}, {0, 5, 1, -1}, {3, 0, 2, 2}};
    printf("det4 = %ld, det(b 6x6) = %ld\n", det(m4, 4), det(b, 6));
    for (uint64_t n = 10; n <= 10000000000UL; n *= 100) {
        uint64_t f;
        fibm(n, 1000000007UL, &f);
        printf("fib(%lu) mod 1e9+7 = %lu\n", n, f);
    }
    return 0;
}
