/* checks ++/-- and compound assignment evaluate a side-effecting lvalue exactly once */
#include <stdio.h>
static int calls;
static int idx(int i)
{
    calls++;
    return i;
}
int main(void)
{
    int a[4] = { 10, 20, 30, 40 };
    int *p = a;
    (*p++)++;
    a[idx(1)]++;
    --a[idx(2)];
    a[idx(3)] -= 5;
    *p++ += 100;
    printf("%d %d %d %d calls=%d off=%d\n", a[0], a[1], a[2], a[3], calls, (int)(p - a));
    return 0;
}
