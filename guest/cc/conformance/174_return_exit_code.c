/* checks a nonzero value returned from main becomes the exit status */
#include <stdio.h>
static int code(int x)
{
    return x * 6;
}
int main(void)
{
    printf("returning 42\n");
    return code(7);
}
