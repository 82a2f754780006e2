/* checks a union's members share storage and its size is the largest member */
#include <stdio.h>
#include <stdint.h>
union u {
    uint32_t word;
    uint8_t bytes[4];
    uint16_t halves[2];
};
int main(void)
{
    union u x;
    x.word = 0xA1B2C3D4u;
    printf("%x %x %x %x\n", x.bytes[0], x.bytes[3], x.halves[0], x.halves[1]);
    x.bytes[1] = 0;
    printf("%x %d\n", x.word, (int)sizeof x);
    return 0;
}
