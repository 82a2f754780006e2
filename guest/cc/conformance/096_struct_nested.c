/* checks nested structs and chained member access */
#include <stdio.h>
struct inner {
    int a, b;
};
struct outer {
    char tag;
    struct inner in;
    struct inner arr[2];
};
int main(void)
{
    struct outer o = { 'T', { 1, 2 }, { { 3, 4 }, { 5, 6 } } };
    o.in.b += 10;
    o.arr[1].a = o.in.a + o.arr[0].b;
    printf("%c %d %d %d %d %d\n", o.tag, o.in.a, o.in.b, o.arr[0].a, o.arr[1].a, o.arr[1].b);
    printf("%d\n", (int)sizeof(struct outer));
    return 0;
}
