/* checks returning a pointer to a static local array that persists across calls */
#include <stdio.h>
static const char *hex(unsigned v)
{
    static char buf[9];
    static const char digits[] = "0123456789abcdef";
    for (int i = 7; i >= 0; i--, v >>= 4)
        buf[i] = digits[v & 15];
    buf[8] = '\0';
    return buf;
}
int main(void)
{
    printf("%s\n", hex(0xdeadbeefu));
    const char *p = hex(255);
    printf("%s %c\n", p, p[6]);
    return 0;
}
