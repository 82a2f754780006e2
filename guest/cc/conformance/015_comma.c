/* checks the comma operator evaluates left to right and yields the right value */
#include <stdio.h>
int main(void)
{
    int a = 1, b;
    b = (a += 2, a * 10);
    int c = (a++, a++, a);
    for (int i = 0, j = 10; i < j; i += 3, j -= 3)
        printf("%d,%d ", i, j);
    printf("\n%d %d %d\n", a, b, c);
    return 0;
}
