/* checks a struct with members of mixed sizes and their offsets/padding */
#include <stdio.h>
#include <stddef.h>
struct mix {
    char c;
    int i;
    short s;
    long l;
    char d;
};
int main(void)
{
    struct mix m = { 'a', 100000, -300, 1L << 40, 'z' };
    printf("%c %d %d %ld %c\n", m.c, m.i, m.s, m.l, m.d);
    printf("%d %d %d %d %d %d\n", (int)offsetof(struct mix, c), (int)offsetof(struct mix, i),
           (int)offsetof(struct mix, s), (int)offsetof(struct mix, l), (int)offsetof(struct mix, d),
           (int)sizeof(struct mix));
    return 0;
}
