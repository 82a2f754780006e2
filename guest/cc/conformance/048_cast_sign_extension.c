/* checks widening casts sign-extend signed and zero-extend unsigned sources */
#include <stdio.h>
int main(void)
{
    signed char sc = -2;
    unsigned char uc = 254;
    short s = -3;
    int i = -4;
    unsigned u = 0xFFFFFFFCu;
    printf("%ld %ld %ld %ld %ld\n", (long)sc, (long)uc, (long)s, (long)i, (long)u);
    printf("%lx %lx\n", (unsigned long)i, (unsigned long)u);
    return 0;
}
