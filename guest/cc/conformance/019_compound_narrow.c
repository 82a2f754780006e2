/* checks compound assignment to char and short converts back to the narrow type */
#include <stdio.h>
int main(void)
{
    unsigned char c = 250;
    c += 10;
    short s = 32767;
    s += 2;
    signed char sc = -128;
    sc -= 1;
    unsigned short us = 3;
    us *= 30000;
    printf("%d %d %d %d\n", c, s, sc, us);
    return 0;
}
