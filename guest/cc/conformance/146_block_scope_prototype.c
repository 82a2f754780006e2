/* checks a function prototype declared inside a block before the definition */
#include <stdio.h>
int main(void)
{
    int helper(int);
    int twice(int x), n = 3;
    printf("%d %d\n", helper(4), twice(n));
    return 0;
}
int helper(int x) { return x * 8; }
int twice(int x) { return x * 2; }
