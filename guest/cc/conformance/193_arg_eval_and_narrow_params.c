/* checks char/short parameters and return values are converted at the call boundary */
#include <stdio.h>
static unsigned char uc(unsigned char x) { return x + 1; }
static signed char sc(signed char x) { return x - 1; }
static short sh(short x) { return x * 2; }
static unsigned short us(int x) { return x; }
int main(void)
{
    printf("%d %d %d %d\n", uc(255), sc(-128), sh(20000), us(-1));
    return 0;
}
