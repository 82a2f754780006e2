/* checks == and != on ints, longs and chars */
#include <stdio.h>
int main(void)
{
    int a = 3, b = 3;
    long c = 1L << 40, d = 0;
    char e = 'x';
    printf("%d %d %d %d %d %d\n", a == b, a != b, c == d, c != d, e == 'x', e != 'x');
    return 0;
}
