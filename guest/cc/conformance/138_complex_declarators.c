/* checks parenthesised declarators: const function pointer, array of functions returning pointers, function returning pointer to array */
#include <stdio.h>
static int x3[3] = { 7, 8, 9 };
static int (*get_arr(void))[3] { return &x3; }
static char *name0(void) { return "n0"; }
static char *name1(void) { return "n1"; }
static int twice(int v) { return 2 * v; }
int main(void)
{
    int (*const cfp)(int) = twice;
    char *(*names[2])(void) = { name0, name1 };
    int (*(*pf)(void))[3] = get_arr;
    printf("%d %s %s %d\n", cfp(21), names[0](), names[1](), (*pf())[2]);
    return 0;
}
