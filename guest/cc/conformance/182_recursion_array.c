/* checks recursion over an array (recursive quicksort on a local array) */
#include <stdio.h>
static void qs(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) {
            int t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
    }
    qs(a, lo, j);
    qs(a, i, hi);
}
int main(void)
{
    int a[12] = { 9, -3, 7, 7, 0, 12, -8, 5, 1, 1, 100, 4 };
    qs(a, 0, 11);
    for (int i = 0; i < 12; i++)
        printf("%d ", a[i]);
    printf("\n");
    return 0;
}
