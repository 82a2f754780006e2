/* checks struct assignment copies an embedded array (array copy via struct) */
#include <stdio.h>
struct buf {
    int data[8];
};
int main(void)
{
    struct buf a, b;
    for (int i = 0; i < 8; i++)
        a.data[i] = i + 1;
    b = a;
    a.data[0] = 100;
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += b.data[i];
    printf("%d %d %d\n", s, b.data[0], a.data[0]);
    return 0;
}
