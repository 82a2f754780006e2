/* checks member access on a struct returned by a call */
#include <stdio.h>
struct rgb {
    unsigned char r, g, b;
};
static struct rgb mk(int r, int g, int b)
{
    struct rgb c = { r, g, b };
    return c;
}
int main(void)
{
    printf("%d %d %d\n", mk(1, 2, 3).r, mk(4, 5, 6).g, mk(7, 8, 300).b);
    struct rgb c = mk(9, 9, 9);
    printf("%d\n", c.r + c.g + c.b);
    return 0;
}
