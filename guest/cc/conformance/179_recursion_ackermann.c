/* checks deep non-primitive recursion (Ackermann with small arguments) */
#include <stdio.h>
static int ack(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
int main(void)
{
    printf("%d %d %d %d\n", ack(0, 0), ack(1, 2), ack(2, 3), ack(3, 3));
    return 0;
}
