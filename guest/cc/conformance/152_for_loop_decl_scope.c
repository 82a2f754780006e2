/* checks a for-init declaration is scoped to the loop */
#include <stdio.h>
int main(void)
{
    int i = 100;
    int s = 0;
    for (int i = 0; i < 5; i++)
        s += i;
    for (int i = 0, j = 10; i < j; i++, j--)
        s += j - i;
    printf("%d %d\n", i, s);
    return 0;
}
