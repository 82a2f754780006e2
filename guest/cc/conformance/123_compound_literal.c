/* checks compound literals of struct and array type */
#include <stdio.h>
struct pt {
    int x, y;
};
static int manhattan(struct pt p) { return (p.x < 0 ? -p.x : p.x) + (p.y < 0 ? -p.y : p.y); }
int main(void)
{
    struct pt p = (struct pt){ 3, -4 };
    int *arr = (int[]){ 10, 20, 30 };
    printf("%d %d %d\n", manhattan(p), manhattan((struct pt){ .y = 7 }), arr[1] + arr[2]);
    return 0;
}
