/* checks double and float arithmetic, conversions to and from integers, comparisons and truth */
#include <stdio.h>
double g = 2.5;
int main(void) {
    double a = 1.5, b = .25e1;
    float f = 3.0f, h = f * 2;
    double c = a * b + g - 1 / 4.0;
    int i = (int)(c * 100);
    long l = (long)-2.75;
    unsigned long u = (unsigned long)1e19;
    double back = (double)i / 7;
    float ff = (float)back;
    int cmp = (a < b) + (a == 1.5) * 2 + (f != h) * 4 + (c >= 6.0) * 8 + !(0.0) * 16 + (-0.0 ? 32 : 0);
    printf("%d %ld %lu %d %d %d\n", i, l, u, (int)(back * 1000), (int)(ff * 1000), cmp);
    return 0;
}
