/* checks += -= *= /= %= on int */
#include <stdio.h>
int main(void)
{
    int a = 10;
    a += 5;
    printf("%d ", a);
    a -= 20;
    printf("%d ", a);
    a *= -6;
    printf("%d ", a);
    a /= 7;
    printf("%d ", a);
    a %= 3;
    printf("%d\n", a);
    return 0;
}
