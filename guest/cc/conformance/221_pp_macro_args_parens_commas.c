/* checks macro arguments containing parenthesised commas and nested calls */
#include <stdio.h>
#define FIRST(a, b) (a)
#define SECOND(a, b) (b)
static int f(int x, int y) { return x * 10 + y; }
int main(void)
{
    printf("%d %d %d\n", FIRST(f(1, 2), 3), SECOND(4, f(5, 6)), FIRST((7, 8), 9));
    return 0;
}
