/* checks ?: choosing between struct values */
#include <stdio.h>
struct p {
    int x, y;
    long z;
};
int main(void)
{
    struct p a = { 1, 2, 3 }, b = { 4, 5, 6 };
    int flag = 0;
    struct p c = flag ? a : b;
    struct p d = !flag ? a : b;
    printf("%d %d %ld %d\n", c.x, c.y, c.z, d.x);
    printf("%d\n", (flag ? a : b).y);
    return 0;
}
