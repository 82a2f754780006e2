/* checks int subtraction and unary minus */
#include <stdio.h>
int main(void)
{
    int a = 7, b = -12;
    int c = 100 - a - b;
    c = c - 1;
    printf("%d %d %d %d %d\n", a - b, b - a, a - a, -a, -b - -a);
    printf("%d %d\n", c, 0 - 2147483647);
    return 0;
}
