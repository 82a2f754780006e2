/* checks goto into a nested block and jumping backwards out of it */
#include <stdio.h>
int main(void)
{
    int n = 0, s = 0;
    goto inside;
    {
        int x;
    inside:
        x = n * 2;
        s += x;
        n++;
        if (n < 4)
            goto inside;
    }
    printf("%d %d\n", n, s);
    return 0;
}
