/* checks a macro is not re-expanded inside its own expansion */
#include <stdio.h>
int foo = 10;
#define foo (foo + 1)
#define self self
int main(void)
{
    int self = 4;
    printf("%d %d\n", foo, self);
    return 0;
}
