/* checks a variadic library call (printf) with more than eight arguments */
#include <stdio.h>
int main(void)
{
    long big = 1L << 40;
    const char *s = "str";
    printf("%d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    printf("%s %ld %s %ld %s %ld %s %ld %s\n", s, big, s, big + 1, s, big + 2, s, big + 3, s);
    return 0;
}
