/* checks conversion of comparisons to int and of values to truth via !! */
#include <stdio.h>
int main(void)
{
    long big = 1L << 35;
    int as_int = (int)big;
    int truth = !!big;
    unsigned char c = 256 == 256;
    printf("%d %d %d %d\n", as_int, truth, c, (3 < 4) + (4 < 3) + (5 == 5));
    return 0;
}
