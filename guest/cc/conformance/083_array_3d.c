/* checks a three-dimensional array and sizeof at each level */
#include <stdio.h>
int main(void)
{
    short t[2][3][4];
    int n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                t[i][j][k] = n++;
    printf("%d %d %d\n", t[1][2][3], t[0][1][2], t[1][0][0]);
    printf("%d %d %d %d\n", (int)sizeof t, (int)sizeof t[0], (int)sizeof t[0][0], (int)sizeof t[0][0][0]);
    return 0;
}
