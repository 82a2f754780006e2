/* init.c: slice 3: local initialisers (arrays, structs, nested lists, strings, lengths from
 * the initialiser, what a list leaves out is zero), struct assignment, goto and labels. */
#include "testio.h"

typedef struct { int x, y; } Pt;
typedef struct { char name[8]; Pt pts[3]; long id; } Shape;

/* Globals with initialisers of every kind: nested lists, strings as pointers and arrays,
 * addresses of globals. */
Shape gshape = {"glob", {{5, 6}, {7, 8}}, 1234};
char *words[] = {"alpha", "beta", "gamma"};
int gcount = 3;
int *gptr = &gcount;
long sizes[] = {sizeof(Pt), sizeof(Shape), -1};

int main(void)
{
    int a[5] = {1, 2, 3};
    out(a[0] + a[1] * 10 + a[2] * 100 + a[3] * 1000 + a[4] * 10000);
    int b[] = {7, 8, 9, 10,};
    out(sizeof(b) / sizeof(b[0]));
    char s[] = "hello";
    out(sizeof(s));
    sys_write(1, s, 5);
    sys_write(1, "\n", 1);
    char t[10] = "hi";
    out(t[1] + t[2] + t[9]);
    Pt p = {3, -4};
    out(p.x * 10 + p.y);
    Shape sh = {"box", {{1, 2}, {3, 4}}, 99};
    out(sh.pts[1].y + sh.pts[2].x + sh.id + sh.name[2]);
    Shape copy;
    copy = sh;
    copy.pts[0].x = 50;
    out(copy.pts[0].x + sh.pts[0].x + copy.id);
    int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    out(m[1][2] * 10 + m[0][1]);
    out(gshape.pts[1].x + gshape.id + gshape.name[3]);
    puts_(words[2]);
    out(*gptr + sizeof(words) / sizeof(words[0]) + sizes[1] + sizes[2]);
    int i = 0, total = 0;
again:
    total += i;
    i++;
    if (i < 5) goto again;
    out(total);
    goto done;
    out(-1);
done:
    return 0;
}
