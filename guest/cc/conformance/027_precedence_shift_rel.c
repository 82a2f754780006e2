/* checks precedence of shift vs additive vs relational vs equality */
#include <stdio.h>
int main(void)
{
    int a = 1 << 2 + 1;
    int b = 16 >> 1 + 1;
    int c = 1 < 2 == 1;
    int d = 3 > 2 > 1;
    int e = 1 << 3 < 9;
    printf("%d %d %d %d %d\n", a, b, c, d, e);
    return 0;
}
