/* checks whole-struct assignment copies every member */
#include <stdio.h>
struct rec {
    int id;
    char name[12];
    long val;
};
int main(void)
{
    struct rec a = { 1, "alpha", 100 };
    struct rec b;
    b = a;
    a.id = 2;
    a.name[0] = 'A';
    a.val = 200;
    printf("%d %s %ld / %d %s %ld\n", a.id, a.name, a.val, b.id, b.name, b.val);
    struct rec c = b;
    printf("%d %s\n", c.id, c.name);
    return 0;
}
