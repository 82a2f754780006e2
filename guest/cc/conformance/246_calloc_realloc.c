/* checks calloc zeroes memory and realloc preserves contents while growing */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    int *a = calloc(8, sizeof *a);
    int zeros = 0;
    for (int i = 0; i < 8; i++)
        zeros += a[i] == 0;
    for (int i = 0; i < 8; i++)
        a[i] = i + 1;
    a = realloc(a, 1000 * sizeof *a);
    for (int i = 8; i < 1000; i++)
        a[i] = i + 1;
    long s = 0;
    for (int i = 0; i < 1000; i++)
        s += a[i];
    free(a);
    printf("%d %ld\n", zeros, s);
    return 0;
}
