/* checks goto leaving nested loops */
#include <stdio.h>
int main(void)
{
    int fi = -1, fj = -1;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            if (i * j == 42) {
                fi = i;
                fj = j;
                goto done;
            }
done:
    printf("%d %d\n", fi, fj);
    return 0;
}
