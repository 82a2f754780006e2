/* checks passing and returning structs of odd sizes (3, 6, 12, 24 bytes) by value */
#include <stdio.h>
struct s3 { char a, b, c; };
struct s6 { short a, b, c; };
struct s12 { int a, b, c; };
struct s24 { char a; long b; short c; };
static struct s3 f3(struct s3 x) { x.a++; x.c += 2; return x; }
static struct s6 f6(struct s6 x) { x.b *= 3; return x; }
static struct s12 f12(struct s12 x, struct s3 y) { x.c += y.b; return x; }
static struct s24 f24(struct s6 p, struct s24 x) { x.b += p.c; x.c = -x.c; return x; }
int main(void)
{
    struct s3 a = { 1, 2, 3 };
    struct s6 b = { 10, 20, 30 };
    struct s12 c = { 100, 200, 300 };
    struct s24 d = { 'd', 5000000000L, 7 };
    struct s3 ra = f3(a);
    struct s6 rb = f6(b);
    struct s12 rc = f12(c, a);
    struct s24 rd = f24(b, d);
    printf("%d %d %d | %d %d %d\n", ra.a, ra.b, ra.c, rb.a, rb.b, rb.c);
    printf("%d %d %d | %c %ld %d\n", rc.a, rc.b, rc.c, rd.a, rd.b, rd.c);
    return 0;
}
