/* checks simple assignment is right-associative and yields the assigned value */
#include <stdio.h>
int main(void)
{
    int a, b, c;
    a = b = c = 9;
    int d = (a = 4) + 1;
    char ch;
    int e = (ch = 300);
    printf("%d %d %d %d %d\n", a, b, c, d, e);
    return 0;
}
