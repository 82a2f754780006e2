/* checks signed division and remainder truncate toward zero */
#include <stdio.h>
int main(void)
{
    int v[4][2] = { { 17, 5 }, { -17, 5 }, { 17, -5 }, { -17, -5 } };
    for (int i = 0; i < 4; i++)
        printf("%d/%d=%d %d%%%d=%d\n", v[i][0], v[i][1], v[i][0] / v[i][1], v[i][0], v[i][1],
               v[i][0] % v[i][1]);
    return 0;
}
