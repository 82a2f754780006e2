/* checks right shift: arithmetic on negative signed, logical on unsigned */
#include <stdio.h>
int main(void)
{
    int a = -64;
    unsigned u = 0x80000000u;
    long l = -1024;
    unsigned long ul = 0x8000000000000000ul;
    printf("%d %u %ld %lx %d\n", a >> 3, u >> 31, l >> 5, ul >> 60, 1000 >> 2);
    return 0;
}
