/* float_libc.c: printf %f/%e/%g/%a, strtod round trips and <math.h> through a real libc (glibc
 * and musl run their own soft paths and FP instructions); garm must print what qemu prints. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int main(void){
  double xs[] = {0.0, 1.0, -2.5, 3.141592653589793, 1e300, 1e-300, 123456.789, 0.1, 2.0/3.0};
  for (int i = 0; i < 9; i++) {
    double x = xs[i];
    printf("%f %e %g %a %.17g\n", x, x, x, x, x);
    char buf[64]; snprintf(buf, sizeof buf, "%.17g", x);
    double y = strtod(buf, 0);
    printf("rt %d %g %g %g %g\n", y == x, sqrt(fabs(x)), floor(x), ceil(x), fmod(x, 0.7));
    printf("m %.15g %.15g %.15g %.15g %.15g\n", sin(x), cos(x), exp(x / 1000), log(fabs(x) + 1), pow(fabs(x) + 1, 0.5));
  }
  float f = 1.0f/3.0f; printf("%f %.9g\n", f, (double)f);
  return 0;
}
