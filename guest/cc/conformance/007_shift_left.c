/* checks left shifts of int, unsigned and long */
#include <stdio.h>
int main(void)
{
    int a = 1;
    unsigned u = 0x80000001u;
    long l = 1;
    int n = 40;
    printf("%d %d %u %ld %lx\n", a << 0, a << 30, u << 1, l << n, 0xffl << 56);
    return 0;
}
