/* checks file-scope static variables and functions */
#include <stdio.h>
static int hidden = 7;
static int helper(int x) { return x + hidden; }
int visible(int x) { return helper(x) * 2; }
int main(void)
{
    hidden = 10;
    printf("%d %d\n", helper(1), visible(2));
    return 0;
}
