/* checks function pointers stored in struct members (vtable-style) */
#include <stdio.h>
struct shape {
    const char *name;
    int (*area)(const struct shape *);
    int w, h;
};
static int rect(const struct shape *s) { return s->w * s->h; }
static int tri(const struct shape *s) { return s->w * s->h / 2; }
int main(void)
{
    struct shape s[2] = { { "rect", rect, 3, 4 }, { "tri", tri, 6, 5 } };
    for (int i = 0; i < 2; i++)
        printf("%s %d\n", s[i].name, s[i].area(&s[i]));
    struct shape *p = &s[1];
    printf("%d\n", (*p->area)(p));
    return 0;
}
