/* checks brace elision in nested aggregate initialisers */
#include <stdio.h>
struct s {
    int a[2];
    int b;
};
int main(void)
{
    int m[2][3] = { 1, 2, 3, 4, 5, 6 };
    struct s v[2] = { 1, 2, 3, 4, 5, 6 };
    printf("%d %d %d\n", m[0][2], m[1][0], m[1][2]);
    printf("%d %d %d %d\n", v[0].b, v[1].a[0], v[1].a[1], v[1].b);
    return 0;
}
