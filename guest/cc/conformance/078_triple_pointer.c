/* checks three levels of pointer indirection */
#include <stdio.h>
static void set(int ***ppp, int v) { ***ppp = v; }
int main(void)
{
    int x = 1, y = 2;
    int *p = &x;
    int **pp = &p;
    int ***ppp = &pp;
    set(ppp, 10);
    **ppp = &y;
    ***ppp += 5;
    printf("%d %d %d\n", x, y, ***ppp);
    return 0;
}
