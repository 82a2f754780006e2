/* checks int addition, including negatives and zero */
#include <stdio.h>
int main(void)
{
    int a = 7, b = -12, c = 0;
    int d = a + b + c;
    d = d + 1000;
    printf("%d %d %d %d\n", a + b, b + b, a + c, 2147483000 + 600);
    printf("%d %d\n", d, 1 + 2 + 3 + 4);
    return 0;
}
