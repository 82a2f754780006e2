/* checks short and unsigned short promote to int */
#include <stdio.h>
int main(void)
{
    short a = 30000, b = 30000;
    unsigned short c = 65535;
    int s = a + b;
    int t = c * c / 65535;
    int u = -c;
    printf("%d %d %d %d\n", s, t, u, (short)(a + b));
    return 0;
}
