/* checks int vs unsigned comparison converts the int to unsigned */
#include <stdio.h>
int main(void)
{
    int m = -1;
    unsigned u = 1;
    printf("%d %d\n", m < u, m > u);
    printf("%u %u\n", m + u, m * u);
    long l = -1;
    printf("%d\n", l < u);
    return 0;
}
