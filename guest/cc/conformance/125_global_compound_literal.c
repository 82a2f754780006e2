/* checks a file-scope compound literal used as a pointer initialiser */
#include <stdio.h>
struct pt {
    int x, y;
};
int *gp = (int[]){ 3, 1, 4, 1, 5 };
struct pt *origin = &(struct pt){ 7, 8 };
int main(void)
{
    gp[1] = 9;
    printf("%d %d %d %d\n", gp[0], gp[1], gp[4], origin->x + origin->y);
    return 0;
}
