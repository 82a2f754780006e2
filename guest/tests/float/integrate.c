/* Numerical integration and ODEs in double: composite Simpson and Gauss-Legendre over smooth and
 * oscillating integrands, an RK4 solve of a damped oscillator and of the Lorenz system, and
 * Kahan-compensated against naive summation; results printed with %.17g and %a. */
#include <math.h>
#include <stdio.h>

static double f1(double x) { return exp(-x * x); }
static double f2(double x) { return sin(10.0 * x) / (1.0 + x * x); }
static double f3(double x) { return sqrt(1.0 - x * x); }

static double simpson(double (*f)(double), double a, double b, int n)
{
    double h = (b - a) / n, s = f(a) + f(b);
    for (int i = 1; i < n; i++)
        s += f(a + i * h) * (i & 1 ? 4.0 : 2.0);
    return s * h / 3.0;
}

static double gauss5(double (*f)(double), double a, double b, int panels)
{
    static const double x[5] = {0.0, 0.5384693101056831, -0.5384693101056831,
                                0.9061798459386640, -0.9061798459386640};
    static const double w[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                                0.2369268850561891, 0.2369268850561891};
    double h = (b - a) / panels, s = 0.0;
    for (int p = 0; p < panels; p++) {
        double m = a + (p + 0.5) * h;
        for (int k = 0; k < 5; k++)
            s += w[k] * f(m + 0.5 * h * x[k]);
    }
    return s * 0.5 * h;
}

static void lorenz(const double *y, double *dy)
{
    dy[0] = 10.0 * (y[1] - y[0]);
    dy[1] = y[0] * (28.0 - y[2]) - y[1];
    dy[2] = y[0] * y[1] - 8.0 / 3.0 * y[2];
}

static void oscillator(const double *y, double *dy)
{
    dy[0] = y[1];
    dy[1] = -4.0 * y[0] - 0.3 * y[1];
    dy[2] = 0.0;
}

static void rk4(void (*f)(const double *, double *), double *y, double h, int steps)
{
    for (int s = 0; s < steps; s++) {
        double k1[3], k2[3], k3[3], k4[3], t[3];
        f(y, k1);
        for (int i = 0; i < 3; i++) t[i] = y[i] + 0.5 * h * k1[i];
        f(t, k2);
        for (int i = 0; i < 3; i++) t[i] = y[i] + 0.5 * h * k2[i];
        f(t, k3);
        for (int i = 0; i < 3; i++) t[i] = y[i] + h * k3[i];
        f(t, k4);
        for (int i = 0; i < 3; i++) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
}

int main(void)
{
    double (*fs[3])(double) = {f1, f2, f3};
    for (int i = 0; i < 3; i++) {
        double b = i == 2 ? 1.0 : 3.0;
        for (int n = 8; n <= 512; n *= 4)
            printf("f%d simpson n=%d %.17g gauss %a\n", i + 1, n, simpson(fs[i], 0.0, b, n),
                   gauss5(fs[i], 0.0, b, n / 8));
    }
    double y[3] = {1.0, 1.0, 1.0};
    rk4(lorenz, y, 0.001, 1000);
    printf("lorenz %.17g %.17g %.17g\n", y[0], y[1], y[2]);
    double o[3] = {1.0, 0.0, 0.0};
    rk4(oscillator, o, 0.01, 1000);
    printf("oscillator %a %a\n", o[0], o[1]);
    float naive = 0.0f, sum = 0.0f, c = 0.0f;
    for (int i = 1; i <= 20000; i++) {
        float v = 1.0f / (float)i;
        naive += v;
        float yk = v - c, t = sum + yk;
        c = (t - sum) - yk;
        sum = t;
    }
    printf("harmonic float naive %.9g kahan %.9g (%a %a)\n", naive, sum, naive, sum);
    return 0;
}
