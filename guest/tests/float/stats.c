/* Mean, variance (naive, Welford, Kahan-compensated) and qsort of floats and doubles. */
#include <stdio.h>
#include <stdlib.h>
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static int cmpf(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }
int main(void)
{
    static double d[500];
    static float f[500];
    unsigned s = 12345;
    for (int i = 0; i < 500; i++) {
        s = s * 1103515245 + 12345;
        d[i] = (s >> 8) / 16777216.0 * 200 - 100 + 1e8 * (i == 17);
        f[i] = (float)d[i] / 3;
    }
    double sum = 0, c = 0, mean = 0, m2 = 0, naive = 0;
    for (int i = 0; i < 500; i++) {
        double y = d[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
        naive += d[i];
        double delta = d[i] - mean;
        mean += delta / (i + 1);
        m2 += delta * (d[i] - mean);
    }
    printf("kahan %.17g naive %.17g mean %.17g var %.17g\n", sum, naive, mean, m2 / 499);
    qsort(d, 500, sizeof d[0], cmpd);
    qsort(f, 500, sizeof f[0], cmpf);
    printf("min %.17g med %.17g max %.17g fmin %.9g fmed %.9g\n", d[0], d[250], d[499], f[0], f[250]);
    return 0;
}
