/* checks ?: evaluates only the selected operand and nests right-associatively */
#include <stdio.h>
static int n;
static int g(int v)
{
    n += v;
    return v;
}
int main(void)
{
    int a = 5;
    int r = a > 3 ? g(10) : g(100);
    int s = a < 0 ? -1 : a == 0 ? 0 : 1;
    int t = 0 ? 1 : 2 ? 3 : 4;
    printf("%d %d %d n=%d\n", r, s, t, n);
    return 0;
}
