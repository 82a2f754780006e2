/* checks qsort from stdlib.h with a user comparator */
#include <stdio.h>
#include <stdlib.h>
static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_desc(const void *a, const void *b) { return cmp_int(b, a); }
int main(void)
{
    int v[10] = { 42, -7, 19, 0, 3, 3, 100, -50, 8, 21 };
    qsort(v, 10, sizeof v[0], cmp_int);
    for (int i = 0; i < 10; i++)
        printf("%d ", v[i]);
    printf("\n");
    qsort(v, 10, sizeof v[0], cmp_desc);
    printf("%d %d\n", v[0], v[9]);
    return 0;
}
