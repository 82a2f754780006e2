/* checks & and * on locals, assignment through a pointer and pointer to pointer */
#include <stdio.h>
int main(void)
{
    int a = 1, b = 2;
    int *p = &a;
    int **pp = &p;
    *p = 10;
    *pp = &b;
    **pp += 5;
    printf("%d %d %d\n", a, b, *p);
    return 0;
}
