/* fpclassify, isnan/isinf/signbit, nextafter, copysign, fma, ilogb, scalbn over special values. */
#include <math.h>
#include <stdio.h>
int main(void)
{
    double v[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 5e-324, 2.2250738585072014e-308,
                  1.7976931348623157e308, 0.1, -3.5};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        double x = v[i];
        printf("%a: class %d nan %d inf %d sign %d next %a %a copy %a ilogb %d scal %a fma %a\n", x,
               fpclassify(x), isnan(x) != 0, isinf(x), signbit(x) != 0, nextafter(x, 0.0),
               nextafter(x, INFINITY), copysign(2.0, x), isnan(x) || x == 0 ? 0 : ilogb(x),
               scalbn(x, -3), fma(x, 3.0, -0.1));
    }
    return 0;
}
