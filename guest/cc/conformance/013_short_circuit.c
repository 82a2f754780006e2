/* checks && and || do not evaluate the right operand when decided */
#include <stdio.h>
static int calls;
static int f(int v)
{
    calls++;
    return v;
}
int main(void)
{
    int r1 = f(0) && f(1);
    int r2 = f(1) || f(0);
    int r3 = f(1) && f(0);
    int r4 = f(0) || f(0);
    int *p = 0;
    int r5 = p && *p;
    printf("%d %d %d %d %d calls=%d\n", r1, r2, r3, r4, r5, calls);
    return 0;
}
