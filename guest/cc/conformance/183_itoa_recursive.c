/* checks recursion writing digits into a buffer (integer to string in any base) */
#include <stdio.h>
static char *put(unsigned long v, unsigned base, char *out)
{
    if (v >= base)
        out = put(v / base, base, out);
    *out++ = "0123456789abcdefghijklmnopqrstuvwxyz"[v % base];
    return out;
}
int main(void)
{
    char buf[80];
    unsigned bases[] = { 2, 8, 10, 16, 36 };
    for (int i = 0; i < 5; i++) {
        *put(123456789UL, bases[i], buf) = '\0';
        printf("%s ", buf);
    }
    printf("\n");
    return 0;
}
