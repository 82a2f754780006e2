/* checks struct declaration, member store and load */
#include <stdio.h>
struct point {
    int x;
    int y;
};
int main(void)
{
    struct point p;
    p.x = 3;
    p.y = -4;
    struct point q = { 10, 20 };
    printf("%d %d %d %d\n", p.x, p.y, q.x + p.x, q.y * p.y);
    return 0;
}
