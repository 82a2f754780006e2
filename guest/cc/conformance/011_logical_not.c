/* checks logical ! on ints, pointers and nested negation */
#include <stdio.h>
int main(void)
{
    int a = 0, b = 42;
    int *p = 0, *q = &b;
    printf("%d %d %d %d %d %d\n", !a, !b, !!b, !p, !q, !!!a);
    return 0;
}
