/* checks a static table of function pointers with enum-designated entries */
#include <stdio.h>
enum op { ADD, SUB, NEG, NOPS };
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int neg(int a, int b) { (void)b; return -a; }
static int (*table[NOPS])(int, int) = { [NEG] = neg, [ADD] = add, [SUB] = sub };
static int (*gfp)(int, int) = sub;
int main(void)
{
    for (int i = 0; i < NOPS; i++)
        printf("%d ", table[i](10, 3));
    printf("%d\n", gfp(1, 2));
    return 0;
}
