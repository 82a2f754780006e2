/* checks a 2-D array parameter with a fixed column count */
#include <stdio.h>
static int trace(int m[][3], int n)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        t += m[i][i];
    return t;
}
static void fill(int m[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = (i + 1) * (j + 2);
}
int main(void)
{
    int m[3][3];
    fill(m);
    printf("%d %d\n", trace(m, 3), m[2][1]);
    return 0;
}
