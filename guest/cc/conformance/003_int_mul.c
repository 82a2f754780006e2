/* checks int multiplication with mixed signs */
#include <stdio.h>
int main(void)
{
    int a = 123, b = -45, c = 0;
    int d = a * a * 3;
    d = d * -1;
    printf("%d %d %d %d\n", a * b, b * b, a * c, -7 * -8);
    printf("%d %d\n", d, 46340 * 46340);
    return 0;
}
