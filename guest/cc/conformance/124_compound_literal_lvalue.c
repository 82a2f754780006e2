/* checks compound literals are modifiable lvalues with addresses */
#include <stdio.h>
struct pt {
    int x, y;
};
int main(void)
{
    struct pt *p = &(struct pt){ 1, 2 };
    p->x = 100;
    int *a = (int[4]){ 0 };
    a[3] = 5;
    printf("%d %d %d %d\n", p->x, p->y, a[0], a[3]);
    return 0;
}
