/* checks a function returning a pointer to function */
#include <stdio.h>
static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }
typedef int (*fn_t)(int);
static fn_t pick(int up) { return up ? inc : dec; }
static int (*pick2(int up))(int) { return up ? dec : inc; }
int main(void)
{
    printf("%d %d %d %d\n", pick(1)(10), pick(0)(10), pick2(1)(10), pick2(0)(10));
    return 0;
}
