/* A 64-point radix-2 FFT in double complex and its inverse; max error and a few bins. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#define N 64
static void fft(double complex *a, int inv)
{
    for (int i = 1, j = 0; i < N; i++) {
        int bit = N >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) { double complex t = a[i]; a[i] = a[j]; a[j] = t; }
    }
    for (int len = 2; len <= N; len <<= 1) {
        double ang = 2 * M_PI / len * (inv ? -1 : 1);
        double complex w = cos(ang) + I * sin(ang);
        for (int i = 0; i < N; i += len) {
            double complex wn = 1;
            for (int j = 0; j < len / 2; j++) {
                double complex u = a[i + j], v = a[i + j + len / 2] * wn;
                a[i + j] = u + v;
                a[i + j + len / 2] = u - v;
                wn *= w;
            }
        }
    }
    if (inv) for (int i = 0; i < N; i++) a[i] /= N;
}
int main(void)
{
    double complex a[N], b[N];
    for (int i = 0; i < N; i++) a[i] = b[i] = sin(i * 0.3) + 0.5 * cos(i * 1.7) + I * (i % 5);
    fft(a, 0);
    for (int k = 0; k < 8; k++) printf("%d %.12f %.12f\n", k, creal(a[k]), cimag(a[k]));
    fft(a, 1);
    double err = 0;
    for (int i = 0; i < N; i++) err = fmax(err, cabs(a[i] - b[i]));
    printf("err %.3e\n", err);
    return 0;
}
