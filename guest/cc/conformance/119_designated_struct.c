/* checks designated initialisers for struct members (.m =), out of order, rest zeroed */
#include <stdio.h>
struct cfg {
    int width;
    int height;
    int depth;
    const char *name;
};
int main(void)
{
    struct cfg c = { .height = 20, .name = "box", .width = 10 };
    printf("%d %d %d %s\n", c.width, c.height, c.depth, c.name);
    return 0;
}
