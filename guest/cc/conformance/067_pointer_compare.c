/* checks relational and equality comparison of pointers into one array */
#include <stdio.h>
int main(void)
{
    int arr[6];
    int *p = &arr[1], *q = &arr[4], *r = arr + 1;
    printf("%d %d %d %d %d %d\n", p < q, p > q, p <= r, q >= r, p == r, p != q);
    int *n = NULL;
    printf("%d %d\n", n == 0, p != NULL);
    return 0;
}
