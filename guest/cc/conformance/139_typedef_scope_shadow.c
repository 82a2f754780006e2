/* checks a typedef name shadowed by a local variable in an inner scope */
#include <stdio.h>
typedef int T;
int main(void)
{
    T a = 1;
    {
        int T = 5;
        a += T;
    }
    T b = a * 2;
    printf("%d %d\n", a, b);
    return 0;
}
