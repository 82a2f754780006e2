/* checks backslash-newline continuation in macro definitions and do-while(0) macros */
#include <stdio.h>
#define SWAP(a, b)      \
    do {                \
        int t_ = (a);   \
        (a) = (b);      \
        (b) = t_;       \
    } while (0)
int main(void)
{
    int x = 1, y = 2;
    if (x < y)
        SWAP(x, y);
    else
        printf("no\n");
    printf("%d %d\n", x, y);
    return 0;
}
