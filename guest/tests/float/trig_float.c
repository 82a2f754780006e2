/* Single precision: sinf/cosf/expf/logf/powf/sqrtf/atan2f and float arithmetic in loops. */
#include <math.h>
#include <stdio.h>
int main(void)
{
    float acc = 0, prod = 1;
    for (int i = 1; i <= 200; i++) {
        float x = i * 0.05f - 5;
        acc += sinf(x) * cosf(x / 2) + expf(x / 10) - logf((float)i) + powf(1.01f, (float)i) + sqrtf((float)i) + atan2f(x, 2);
        prod = prod * 1.0001f + x / 1000;
        if (i % 40 == 0) printf("%d %.9g %.9g %a\n", i, (double)acc, (double)prod, (double)acc);
    }
    return 0;
}
