/* checks a global array of pointers to functions used as a dispatch table */
#include <stdio.h>
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
int (*ops[])(int, int) = { add, sub, mul };
int main(void)
{
    int (*local[3])(int, int) = { mul, add, sub };
    for (int i = 0; i < 3; i++)
        printf("%d %d\n", ops[i](9, 4), local[i](9, 4));
    return 0;
}
