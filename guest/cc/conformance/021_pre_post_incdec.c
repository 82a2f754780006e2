/* checks prefix and postfix ++ and -- values and side effects */
#include <stdio.h>
int main(void)
{
    int a = 5;
    int b = a++;
    int c = ++a;
    int d = a--;
    int e = --a;
    printf("%d %d %d %d %d\n", a, b, c, d, e);
    return 0;
}
