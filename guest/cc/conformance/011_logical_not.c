/* checks logical ! on ints, pointers and nested negation */
#include <stdio.h>
int main(void)
{
    int a = 0, b = 42;
    int *p = 0, *q = &b;
    long big = 1L << 33;
    printf("%d %d %d %d %d %d\n", !a, !b, !!b, !p, !q, !!!a);
    printf("%d %d\n", !big, !(big - (1L << 33)));
    return 0;
}
