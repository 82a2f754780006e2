/* checks arrays passed to functions decay to pointers and are modified in place */
#include <stdio.h>
static int sum(int a[], int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
static void dbl(int *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] *= 2;
}
int main(void)
{
    int a[5] = { 1, 2, 3, 4, 5 };
    dbl(a, 5);
    printf("%d %d\n", sum(a, 5), sum(a + 2, 3));
    return 0;
}
