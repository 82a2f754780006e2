/* checks an extern declaration at block scope refers to the file-scope object defined later */
#include <stdio.h>
static int read_shared(void)
{
    extern int shared;
    return shared;
}
int main(void)
{
    extern int shared;
    shared += 1;
    printf("%d %d\n", shared, read_shared());
    return 0;
}
int shared = 8;
