/* checks offsetof for members of a padded struct, including nested and array members */
#include <stdio.h>
#include <stddef.h>
struct in {
    char a;
    short b;
};
struct s {
    char x;
    long y;
    struct in z;
    int w[3];
    char v;
};
int main(void)
{
    printf("%d %d %d %d %d %d\n", (int)offsetof(struct s, x), (int)offsetof(struct s, y),
           (int)offsetof(struct s, z), (int)offsetof(struct s, w), (int)offsetof(struct s, v),
           (int)sizeof(struct s));
    return 0;
}
