/* checks bsearch from stdlib.h with a comparator */
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}
int main(void)
{
    int v[] = { 1, 3, 5, 7, 9, 11, 13 };
    int keys[] = { 7, 1, 13, 4 };
    for (int i = 0; i < 4; i++) {
        int *r = bsearch(&keys[i], v, 7, sizeof v[0], cmp);
        printf("%d:%d ", keys[i], r ? (int)(r - v) : -1);
    }
    printf("\n");
    return 0;
}
