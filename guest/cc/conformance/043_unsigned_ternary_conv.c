/* checks ?: applies the usual arithmetic conversions to its second and third operands */
#include <stdio.h>
int main(void)
{
    int c = 1;
    unsigned u = 0;
    long r1 = c ? -1 : u;
    long r2 = c ? -1 : 0L;
    unsigned char uc = 200;
    int r3 = (c ? uc : -1) + 0;
    printf("%ld %ld %d %d\n", r1, r2, r3, (c ? -1 : u) > 0);
    return 0;
}
