/* checks precedence of & over ^ over | and of == over & */
#include <stdio.h>
int main(void)
{
    int a = 1 | 2 ^ 3 & 4;
    int b = 6 & 3 == 3;
    int c = 5 ^ 1 | 8;
    int d = 12 & 10 | 1 ^ 3;
    printf("%d %d %d %d\n", a, b, c, d);
    return 0;
}
