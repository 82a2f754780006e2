/* checks const and volatile qualified objects read correctly */
#include <stdio.h>
static const int limit = 5;
static const char greet[] = "hey";
int main(void)
{
    volatile int v = 0;
    for (int i = 0; i < limit; i++)
        v += i;
    const long big = 1L << 33;
    volatile unsigned char c = 200;
    printf("%d %s %ld %d\n", v, greet, big, c + 100);
    return 0;
}
