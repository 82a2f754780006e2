/* checks pointer + int and pointer - int scale by the element size */
#include <stdio.h>
int main(void)
{
    long arr[5] = { 10, 20, 30, 40, 50 };
    long *p = arr;
    long *q = p + 3;
    short sarr[4] = { 1, 2, 3, 4 };
    short *s = &sarr[3];
    printf("%ld %ld %ld %d %d\n", *q, *(q - 2), *(1 + p), *(s - 1), s[-3]);
    return 0;
}
