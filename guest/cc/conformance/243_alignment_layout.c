/* checks locals and struct members of different alignments do not overlap */
#include <stdio.h>
#include <stdint.h>
struct s {
    char a;
    long b;
    char c;
    int d;
    short e;
};
int main(void)
{
    struct s v = { 1, 2, 3, 4, 5 };
    char c1 = 'x';
    long l1 = -1;
    char c2 = 'y';
    int i1 = 7;
    printf("%d %ld %d %d %d\n", v.a, v.b, v.c, v.d, v.e);
    printf("%c %ld %c %d %d\n", c1, l1, c2, i1, (int)((uintptr_t)&l1 % 8));
    return 0;
}
