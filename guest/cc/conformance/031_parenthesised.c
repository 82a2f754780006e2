/* checks parentheses override precedence in nested expressions */
#include <stdio.h>
int main(void)
{
    int a = (2 + 3) * 4;
    int b = 2 * (3 + (4 - (5 * (6 - 7))));
    int c = ((((1))));
    int d = (1 << (2 + 1)) | ((8 >> 1) & 4);
    printf("%d %d %d %d\n", a, b, c, d);
    return 0;
}
