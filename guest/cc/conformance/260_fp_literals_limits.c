/* checks floating constants (decimal, hex, exponents, suffixes), float.h-free limits and rounding */
#include <stdio.h>
#include <math.h>
static const double third = 1.0 / 3;
static const float tenth = 0.1f;
int main(void)
{
    double h = 0x1.8p3, e = 12.5e-1, big = 1.7976931348623157e308, tiny = 4.9406564584124654e-324;
    float f = 3.4028235e38f, fl = .5F;
    printf("%.17g %.17g %.9g %.17g\n", third, (double)tenth, f, h + e);
    printf("%g %g %g %d %d\n", big * 2, -big * 2, tiny / 2, isinf(big * 2), isnan(big * 2 - big * 2));
    printf("%.3f %.3f %a %a\n", sqrt(2.0), fabs(-2.5), 1.0, (double)fl);
    printf("%d %d %d %d\n", (int)2.999, (int)-2.999, (int)(unsigned char)255.0, (int)(0.1 + 0.2 == 0.3));
    printf("%ld %lu %d\n", (long)-1e18, (unsigned long)1.8e19, (int)(float)16777217);
    return 0;
}
