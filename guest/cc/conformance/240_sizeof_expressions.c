/* checks sizeof of expressions is computed from types without evaluating them */
#include <stdio.h>
int main(void)
{
    int i = 0;
    char c = 0;
    long l = 0;
    size_t a = sizeof(i++);
    size_t b = sizeof c + sizeof(c + c);
    size_t d = sizeof(l * i);
    size_t e = sizeof(c ? i : l);
    printf("%d %d %d %d %d\n", (int)a, (int)b, (int)d, (int)e, i);
    return 0;
}
