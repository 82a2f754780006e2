/* checks casts to narrower integer types truncate */
#include <stdio.h>
int main(void)
{
    long big = 0x123456789ABCL;
    int i = (int)big;
    unsigned short s = (unsigned short)big;
    unsigned char c = (unsigned char)big;
    short ss = (short)0x18000;
    printf("%x %x %x %d\n", i, s, c, ss);
    return 0;
}
