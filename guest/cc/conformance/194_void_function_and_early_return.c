/* checks void functions, early return and return without value */
#include <stdio.h>
static int total;
static void add_pos(int x)
{
    if (x <= 0)
        return;
    total += x;
}
static void nothing(void) {}
int main(void)
{
    int v[] = { 3, -1, 4, 0, 5 };
    for (int i = 0; i < 5; i++)
        add_pos(v[i]);
    nothing();
    printf("%d\n", total);
    return 0;
}
