/* checks the C99 _Bool type converts any nonzero value to 1 */
#include <stdio.h>
int main(void)
{
    _Bool a = 5, b = 0, c = -1;
    _Bool d = 256;
    long big = 1L << 40;
    _Bool e = big;
    a = a + 1;
    printf("%d %d %d %d %d %d\n", a, b, c, d, e, (int)sizeof(_Bool));
    return 0;
}
