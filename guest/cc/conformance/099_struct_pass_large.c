/* checks passing and returning a struct larger than 16 bytes by value */
#include <stdio.h>
struct big {
    long a, b, c, d;
    int e;
};
static struct big scale(struct big s, int k)
{
    s.a *= k;
    s.b *= k;
    s.c *= k;
    s.d *= k;
    s.e *= k;
    return s;
}
int main(void)
{
    struct big x = { 1, 2, 3, 4, 5 };
    struct big y = scale(x, 3);
    printf("%ld %ld %ld %ld %d\n", x.a, x.b, x.c, x.d, x.e);
    printf("%ld %ld %ld %ld %d\n", y.a, y.b, y.c, y.d, y.e);
    printf("%ld\n", scale(y, 2).d);
    return 0;
}
