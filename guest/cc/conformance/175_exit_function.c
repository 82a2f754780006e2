/* checks exit() from a nested call ends the program with its status */
#include <stdio.h>
#include <stdlib.h>
static void die(int code)
{
    printf("dying %d\n", code);
    exit(code);
}
int main(void)
{
    die(3);
    printf("not reached\n");
    return 0;
}
