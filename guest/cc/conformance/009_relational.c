/* checks < <= > >= yield 0 or 1 for ints */
#include <stdio.h>
int main(void)
{
    int a = 3, b = -5;
    printf("%d %d %d %d\n", a < b, a <= b, a > b, a >= b);
    printf("%d %d %d %d\n", a < a, a <= a, b > b, b >= b);
    return 0;
}
