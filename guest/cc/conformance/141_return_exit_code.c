/* checks a nonzero value returned from main becomes the exit status */
#include <stdio.h>
int main(void)
{
    printf("returning 42\n");
    return 42;
}
