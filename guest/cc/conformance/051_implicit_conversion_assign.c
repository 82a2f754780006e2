/* checks implicit conversions on assignment, argument passing and return */
#include <stdio.h>
static unsigned char narrow(int x) { return x; }
static long widen(int x) { return x; }
static int take_short(short s) { return s; }
int main(void)
{
    unsigned char a = narrow(0x1234);
    long b = widen(-7);
    int c = take_short(70000);
    unsigned d = -1;
    printf("%d %ld %d %u\n", a, b, c, d);
    return 0;
}
