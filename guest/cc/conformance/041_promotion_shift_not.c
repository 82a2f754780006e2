/* checks integer promotion of narrow unsigned operands in ~ and << */
#include <stdio.h>
int main(void)
{
    unsigned short us = 0xFFFF;
    unsigned char uc = 0xAB;
    int a = ~us;
    int b = us << 8;
    int c = ~uc;
    unsigned d = (unsigned char)~uc;
    printf("%d %x %d %u %d\n", a, b, c, d, (int)sizeof(uc << 1));
    return 0;
}
