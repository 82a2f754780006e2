/* checks designated initialisers naming a non-first union member */
#include <stdio.h>
union u {
    int i;
    struct {
        short lo, hi;
    } parts;
    unsigned char b[4];
};
int main(void)
{
    union u a = { .b = { 1, 2, 3, 4 } };
    union u c = { .parts = { 5, 6 } };
    printf("%x %d %d\n", a.i, c.parts.hi, c.b[0]);
    return 0;
}
