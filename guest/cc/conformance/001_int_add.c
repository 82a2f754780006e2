/* checks int addition, including negatives and zero */
#include <stdio.h>
int main(void)
{
    int a = 7, b = -12, c = 0;
    printf("%d %d %d %d\n", a + b, b + b, a + c, 2147483000 + 600);
    return 0;
}
