/* checks && binds tighter than || and ?: binds looser than || */
#include <stdio.h>
int main(void)
{
    int a = 1 || 0 && 0;
    int b = 0 && 1 || 1;
    int c = 0 || 1 ? 10 : 20;
    int d = 1 & 2 && 3;
    int x;
    x = 5 > 3 ? 1 : 0 + 100;
    printf("%d %d %d %d %d\n", a, b, c, d, x);
    return 0;
}
