/* checks any nonzero value (negative, long high bits, pointer) counts as true in conditions */
#include <stdio.h>
int main(void)
{
    int n = -1;
    long big = 1L << 40;
    char c = 128;
    int a = 0;
    if (n) printf("neg ");
    if (big) printf("big ");
    if (c) printf("char ");
    if (&a) printf("ptr ");
    while (big) big >>= 20;
    printf("%ld\n", big);
    return 0;
}
