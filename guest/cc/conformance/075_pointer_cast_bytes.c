/* checks reading an object's bytes through unsigned char * (little-endian) */
#include <stdio.h>
#include <stdint.h>
int main(void)
{
    uint32_t v = 0x11223344u;
    unsigned char *b = (unsigned char *)&v;
    printf("%x %x %x %x\n", b[0], b[1], b[2], b[3]);
    b[0] = 0xAA;
    printf("%x\n", v);
    return 0;
}
