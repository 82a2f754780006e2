/* checks typedefs of struct, array and function pointer types */
#include <stdio.h>
typedef struct vec {
    int x, y;
} Vec;
typedef int Row[3];
typedef int (*BinOp)(int, int);
static int add(int a, int b) { return a + b; }
int main(void)
{
    Vec v = { 1, 2 };
    struct vec w = v;
    Row r = { 7, 8, 9 };
    BinOp op = add;
    printf("%d %d %d %d\n", w.y, r[2], op(v.x, r[0]), (int)sizeof(Row));
    return 0;
}
