/* checks a tagged union inside a struct */
#include <stdio.h>
struct value {
    int kind;
    union {
        long i;
        const char *s;
    } u;
};
static void show(struct value v)
{
    if (v.kind == 0)
        printf("int %ld\n", v.u.i);
    else
        printf("str %s\n", v.u.s);
}
int main(void)
{
    struct value a, b;
    a.kind = 0;
    a.u.i = -42;
    b.kind = 1;
    b.u.s = "hi";
    show(a);
    show(b);
    printf("%d\n", (int)sizeof(struct value));
    return 0;
}
