/* checks recursion 20000 levels deep with locals in each frame */
#include <stdio.h>
static long depth(int n)
{
    int local[4] = { n, n + 1, n + 2, n + 3 };
    if (n == 0)
        return 0;
    return depth(n - 1) + (local[3] - local[0]);
}
int main(void)
{
    printf("%ld\n", depth(20000));
    return 0;
}
