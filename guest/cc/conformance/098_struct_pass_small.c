/* checks passing and returning a small (<=16 byte) struct by value */
#include <stdio.h>
struct pair {
    int a;
    long b;
};
static struct pair swap(struct pair p)
{
    struct pair r;
    r.a = (int)p.b;
    r.b = p.a;
    p.a = 0;
    return r;
}
int main(void)
{
    struct pair x = { 5, 7000000000L };
    struct pair y = swap(x);
    printf("%d %ld %d %ld\n", x.a, x.b, y.a, y.b);
    return 0;
}
