/* checks switch on long long values with cases beyond 32 bits */
#include <stdio.h>
static int f(long long v)
{
    switch (v) {
    case 0x100000000LL: return 1;
    case -0x100000000LL: return 2;
    case 1: return 3;
    case 4294967297LL: return 4;
    default: return 0;
    }
}
int main(void)
{
    printf("%d %d %d %d %d\n", f(1LL << 32), f(-(1LL << 32)), f(1), f((1LL << 32) + 1), f(2));
    return 0;
}
