/* checks unary + and - including on unsigned and char */
#include <stdio.h>
int main(void)
{
    int a = 17;
    unsigned u = 1;
    char c = 'A';
    long l = -5;
    printf("%d %d %u %d %ld %d\n", +a, -a, -u, -c, -l, - -a);
    return 0;
}
