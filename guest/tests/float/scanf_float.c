/* sscanf/strtod/atof of decimal, exponent, hex-float, inf and nan texts; printed back. */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    const char *in[] = {"3.14159", "-2.5e-3", "1e308", "1e-320", "0x1.8p3", "-0x1p-1074", "inf",
                        "-INFINITY", "nan", "  42abc", ".5", "1.7976931348623159e308", "4.9e-324",
                        "123456789012345678901234567890", "0.1000000000000000055511151231257827"};
    for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {
        double d = 0;
        float f = 0;
        int n = sscanf(in[i], "%lf", &d);
        sscanf(in[i], "%f", &f);
        char *end;
        double s = strtod(in[i], &end);
        printf("%-40s n=%d %.17g %a %.9g end+%d %g\n", in[i], n, d, s, (double)f, (int)(end - in[i]), atof(in[i]));
    }
    return 0;
}
