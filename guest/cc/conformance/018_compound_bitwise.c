/* checks &= |= ^= <<= >>= on unsigned */
#include <stdio.h>
int main(void)
{
    unsigned a = 0xABCDu;
    a &= 0xFF0Fu;
    printf("%x ", a);
    a |= 0x30u;
    printf("%x ", a);
    a ^= 0xFFFFu;
    printf("%x ", a);
    a <<= 8;
    printf("%x ", a);
    a >>= 4;
    printf("%x\n", a);
    return 0;
}
