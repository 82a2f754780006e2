/* checks an incomplete struct used via pointers before its definition */
#include <stdio.h>
struct b;
struct a {
    int va;
    struct b *pb;
};
struct b {
    int vb;
    struct a *pa;
};
int main(void)
{
    struct a x;
    struct b y;
    x.va = 1;
    y.vb = 2;
    x.pb = &y;
    y.pa = &x;
    printf("%d %d %d\n", x.pb->vb, y.pa->va, x.pb->pa->pb->vb);
    return 0;
}
