/* <math.h> over many inputs: exp, log, log2, log10, pow, sin, cos, tan, atan2, sinh, tanh,
 * cbrt, hypot, fmod, remainder, floor/ceil/round/trunc, frexp/ldexp, modf; bits printed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
static uint64_t h;
static void mix(double v) { uint64_t b; memcpy(&b, &v, 8); h = (h ^ b) * 0x100000001b3ull; }
int main(void)
{
    for (int i = -60; i <= 60; i++) {
        double x = i * 0.37 + 0.011 * (i % 7);
        h = 0;
        mix(exp(x / 8)); mix(log(fabs(x) + 0.5)); mix(log2(fabs(x) + 1)); mix(log10(fabs(x) + 2));
        mix(pow(fabs(x) + 0.25, 1.7)); mix(sin(x)); mix(cos(x)); mix(tan(x / 3));
        mix(atan2(x, 1.5 - x)); mix(sinh(x / 10)); mix(tanh(x / 5)); mix(cbrt(x));
        mix(hypot(x, 3.0)); mix(fmod(x, 1.3)); mix(remainder(x, 1.3));
        mix(floor(x)); mix(ceil(x)); mix(round(x)); mix(trunc(x));
        int e;
        mix(frexp(x, &e)); mix(e); mix(ldexp(x, i)); double ip; mix(modf(x, &ip)); mix(ip);
        mix(sqrtf((float)fabs(x))); mix(expf((float)x / 10)); mix(sinf((float)x));
        if (i % 6 == 0) printf("%4d %016llx %.17g\n", i, (unsigned long long)h, sin(x) * exp(x / 30));
    }
    return 0;
}
