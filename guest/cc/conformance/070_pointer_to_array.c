/* checks pointers to arrays: (*p)[i] and p+1 stepping a whole row */
#include <stdio.h>
int main(void)
{
    int m[3][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = i * 10 + j;
    int (*row)[4] = m;
    printf("%d %d %d\n", (*row)[2], (*(row + 2))[3], row[1][1]);
    row++;
    printf("%d %d\n", **row, (int)sizeof *row);
    return 0;
}
