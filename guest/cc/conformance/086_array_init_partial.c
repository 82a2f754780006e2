/* checks partially initialised arrays are zero-filled */
#include <stdio.h>
int main(void)
{
    int a[6] = { 1, 2 };
    int b[2][3] = { { 1 }, { 4, 5 } };
    long c[4] = { 0 };
    printf("%d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4], a[5]);
    printf("%d %d %d %d %d %d\n", b[0][0], b[0][1], b[0][2], b[1][0], b[1][1], b[1][2]);
    printf("%ld %ld\n", c[0], c[3]);
    return 0;
}
