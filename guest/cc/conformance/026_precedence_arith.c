/* checks precedence of * / % over + - and left associativity */
#include <stdio.h>
int main(void)
{
    int a = 2 + 3 * 4;
    int b = 20 - 6 - 4;
    int c = 100 / 10 / 5;
    int d = 7 + 8 % 3 * 2 - 1;
    int e = -2 * -3 + 4;
    printf("%d %d %d %d %d\n", a, b, c, d, e);
    return 0;
}
