/* checks int subtraction and unary minus */
#include <stdio.h>
int main(void)
{
    int a = 7, b = -12;
    printf("%d %d %d %d %d\n", a - b, b - a, a - a, -a, -b - -a);
    return 0;
}
