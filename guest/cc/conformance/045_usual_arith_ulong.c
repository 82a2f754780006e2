/* checks long vs unsigned long and unsigned int vs long conversions */
#include <stdio.h>
int main(void)
{
    long a = -1;
    unsigned long b = 1;
    unsigned c = 5;
    long d = -10;
    printf("%d %lu %ld %d\n", a < b, a + b, c + d, c > d);
    return 0;
}
