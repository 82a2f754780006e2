/* checks passing functions as callback parameters */
#include <stdio.h>
static void each(int *a, int n, void (*fn)(int *, void *), void *ctx)
{
    for (int i = 0; i < n; i++)
        fn(&a[i], ctx);
}
static void accumulate(int *x, void *ctx) { *(long *)ctx += *x; }
static void negate(int *x, void *ctx)
{
    (void)ctx;
    *x = -*x;
}
int main(void)
{
    int a[5] = { 1, 2, 3, 4, 5 };
    long sum = 0;
    each(a, 5, negate, NULL);
    each(a, 5, accumulate, &sum);
    printf("%ld %d\n", sum, a[4]);
    return 0;
}
