/* checks a function declared with an empty parameter list () and called with arguments */
#include <stdio.h>
int add3();
int zero();
int main(void)
{
    printf("%d %d\n", add3(1, 2, 3), zero());
    return 0;
}
int add3(int a, int b, int c) { return a + b + c; }
int zero(void) { return 0; }
