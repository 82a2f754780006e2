/* checks ?: with pointer operands, null pointer, and mixed int/long result type */
#include <stdio.h>
int main(void)
{
    int x = 1, y = 2;
    int flag = 0;
    int *p = flag ? &x : &y;
    *p = 7;
    int *q = flag ? &x : 0;
    long big = flag ? 1 : 5000000000L;
    printf("%d %d %d %ld %d\n", x, y, q == 0, big, (int)sizeof(flag ? 1 : 1L));
    return 0;
}
