/* checks floating arguments and results in calls (more than eight too), variadic doubles, globals */
#include <stdio.h>
#include <stdarg.h>
static double gd = 1;
static float gf = -2.5f * 2;
static double tab[3] = {0.5, 1e-3, -1.0 / 3};
static double hyp(double x, double y) { return x * x + y * y; }
static float scale(float v, int k, double m) { return v * k * (float)m; }
static double many(double a, double b, double c, double d, double e, double f, double g, double h, double i, double j) { return a + b * 2 + c * 3 + d + e + f + g + h + i * 10 + j * 100; }
static double avg(int n, ...) { va_list ap; va_start(ap, n); double s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, double); va_end(ap); return s / n; }
struct P { double x; int n; float f; };
int main(void) {
    struct P p = {1.25, 3, 0.5f};
    double d = hyp(3, 4.0);
    float s = scale(1.5f, 3, 2);
    printf("%.3f %.3f %g %g %.17g\n", d, s, gd, gf, tab[2]);
    printf("%f %e %.2f\n", many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), avg(4, 1.0, 2.0, 3.5, 4.5), p.x * p.n + p.f);
    printf("%d %d %ld\n", (int)(d / 7), d > 24.9 && d < 25.1, (long)(tab[1] * 1e6));
    double acc = 0; for (int i = 1; i <= 100; i++) acc += 1.0 / i;
    float fa = 0; for (int i = 0; i < 10; i++) fa += 0.1f;
    printf("%.15f %.9g %a\n", acc, fa, 0.1);
    return 0;
}
