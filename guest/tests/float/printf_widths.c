/* printf of doubles with widths, precisions and flags: %f %e %g %a with -, +, space, 0, #. */
#include <stdio.h>
int main(void)
{
    double v[] = {0.0, -0.0, 1.0, 0.5, 1e-5, 123456789.125, -9.87654321e-10, 1e22, 5e-324, 0.1};
    const char *fmt[] = {"[%f]", "[%12.3f]", "[%-12.2e]", "[%+g]", "[% .10g]", "[%#g]", "[%010.4f]",
                         "[%a]", "[%.3a]", "[%E]", "[%G]", "[%.0f]", "[%#.0e]", "[%.20f]"};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (unsigned j = 0; j < sizeof fmt / sizeof fmt[0]; j++) printf(fmt[j], v[i]);
        printf("\n");
    }
    return 0;
}
