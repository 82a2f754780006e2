/* checks goto to labels forwards and backwards */
#include <stdio.h>
int main(void)
{
    int i = 0, s = 0;
again:
    s += i;
    i++;
    if (i < 5)
        goto again;
    goto skip;
    s = -1;
skip:
    printf("%d %d\n", i, s);
    return 0;
}
