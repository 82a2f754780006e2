/* checks ++/-- on char, unsigned wraparound and long */
#include <stdio.h>
int main(void)
{
    unsigned char c = 255;
    c++;
    unsigned u = 0;
    u--;
    long l = 4294967295L;
    ++l;
    signed char s = 127;
    s++;
    printf("%d %u %ld %d\n", c, u, l, s);
    return 0;
}
