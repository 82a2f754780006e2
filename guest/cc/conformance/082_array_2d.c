/* checks a two-dimensional array indexing and row layout */
#include <stdio.h>
int main(void)
{
    int m[3][5];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            m[i][j] = i * 5 + j;
    int *flat = &m[0][0];
    printf("%d %d %d %d\n", m[2][4], flat[7], m[1][0], (int)sizeof m[0]);
    return 0;
}
