/* checks the #line directive changes __LINE__ */
#include <stdio.h>
int main(void)
{
    int a = __LINE__;
#line 100
    int b = __LINE__;
    int c = __LINE__;
    printf("%d %d %d\n", a, b, c);
    return 0;
}
