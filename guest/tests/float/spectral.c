/* Spectral norm (Benchmarks Game) for n = 40. */
#include <math.h>
#include <stdio.h>
#define N 40
static double A(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }
static void mul_av(const double *v, double *av) { for (int i = 0; i < N; i++) { av[i] = 0; for (int j = 0; j < N; j++) av[i] += A(i, j) * v[j]; } }
static void mul_atv(const double *v, double *atv) { for (int i = 0; i < N; i++) { atv[i] = 0; for (int j = 0; j < N; j++) atv[i] += A(j, i) * v[j]; } }
static void mul_atav(const double *v, double *out) { double t[N]; mul_av(v, t); mul_atv(t, out); }
int main(void)
{
    double u[N], v[N];
    for (int i = 0; i < N; i++) u[i] = 1;
    for (int i = 0; i < 10; i++) { mul_atav(u, v); mul_atav(v, u); }
    double vbv = 0, vv = 0;
    for (int i = 0; i < N; i++) { vbv += u[i] * v[i]; vv += v[i] * v[i]; }
    printf("%0.9f\n", sqrt(vbv / vv));
    return 0;
}
