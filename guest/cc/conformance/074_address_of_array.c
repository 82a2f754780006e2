/* checks &array has the whole array as its pointee (&a + 1 steps past the array) */
#include <stdio.h>
int main(void)
{
    int a[5] = { 1, 2, 3, 4, 5 };
    char *start = (char *)&a;
    char *end = (char *)(&a + 1);
    printf("%d %d %d\n", (int)(end - start), (int)sizeof &a, *(int *)&a);
    printf("%d\n", (int)sizeof *&a);
    return 0;
}
