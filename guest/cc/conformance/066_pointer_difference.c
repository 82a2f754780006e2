/* checks pointer subtraction yields element counts of type ptrdiff_t */
#include <stdio.h>
#include <stddef.h>
struct big { int a[5]; };
int main(void)
{
    int arr[10];
    struct big bs[4];
    ptrdiff_t d1 = &arr[7] - &arr[2];
    ptrdiff_t d2 = &arr[1] - &arr[9];
    long d3 = &bs[3] - &bs[0];
    char *c1 = (char *)&bs[3], *c2 = (char *)&bs[1];
    printf("%ld %ld %ld %ld %d\n", (long)d1, (long)d2, d3, (long)(c1 - c2), (int)sizeof(d1));
    return 0;
}
