/* checks the auto and register storage-class specifiers are accepted */
#include <stdio.h>
int main(void)
{
    auto int a = 4;
    register int b = 5;
    register long s = 0;
    for (register int i = 0; i < 10; i++)
        s += i * a + b;
    printf("%ld\n", s);
    return 0;
}
