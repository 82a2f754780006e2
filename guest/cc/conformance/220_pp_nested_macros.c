/* checks nested macro calls and macro arguments that are macro calls */
#include <stdio.h>
#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define POLY(x) ADD(MUL(x, x), ADD(MUL(2, x), 1))
#define APPLY(f, x) f(x)
#define INC(x) ((x) + 1)
int main(void)
{
    printf("%d %d %d\n", POLY(3), ADD(MUL(2, 3), MUL(4, 5)), APPLY(INC, APPLY(INC, 5)));
    return 0;
}
