/* checks int multiplication with mixed signs */
#include <stdio.h>
int main(void)
{
    int a = 123, b = -45, c = 0;
    printf("%d %d %d %d\n", a * b, b * b, a * c, -7 * -8);
    return 0;
}
