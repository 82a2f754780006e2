/* checks fall-through between switch cases and a default in the middle */
#include <stdio.h>
static int f(int x)
{
    int r = 0;
    switch (x) {
    case 1:
        r += 1;
    case 2:
        r += 10;
    default:
        r += 100;
    case 3:
        r += 1000;
        break;
    case 4:
        r = -1;
    }
    return r;
}
int main(void)
{
    for (int i = 0; i <= 5; i++)
        printf("%d ", f(i));
    printf("\n");
    return 0;
}
