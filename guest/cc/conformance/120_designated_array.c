/* checks designated initialisers for array elements ([i] =), with continuation */
#include <stdio.h>
int main(void)
{
    int a[8] = { [2] = 20, [5] = 50, 60, [0] = 1 };
    for (int i = 0; i < 8; i++)
        printf("%d ", a[i]);
    int b[] = { [4] = 9 };
    printf("| %d\n", (int)(sizeof b / sizeof b[0]));
    return 0;
}
