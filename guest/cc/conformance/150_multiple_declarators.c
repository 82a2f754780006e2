/* checks several declarators of different kinds in one declaration */
#include <stdio.h>
int main(void)
{
    int a = 1, *p = &a, arr[3] = { 4, 5, 6 }, b;
    long c, d = 9;
    b = arr[1] + *p;
    c = d * 2;
    printf("%d %d %ld %ld\n", b, *p, c, d);
    return 0;
}
