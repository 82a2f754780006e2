/* checks the C99 restrict qualifier on pointer parameters and locals */
#include <stdio.h>
static void add(int n, int *restrict dst, const int *restrict a, const int *restrict b)
{
    for (int i = 0; i < n; i++)
        dst[i] = a[i] + b[i];
}
int main(void)
{
    int a[3] = { 1, 2, 3 }, b[3] = { 10, 20, 30 }, c[3];
    int *restrict p = c;
    add(3, p, a, b);
    printf("%d %d %d\n", c[0], c[1], c[2]);
    return 0;
}
