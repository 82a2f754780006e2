/* checks comparisons of promoted narrow unsigned types with negative ints */
#include <stdio.h>
int main(void)
{
    unsigned short us = 1;
    unsigned char uc = 1;
    unsigned u = 1;
    printf("%d %d %d\n", us > -1, uc > -1, u > -1);
    return 0;
}
