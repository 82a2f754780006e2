/* illegal.c: executes a permanently undefined instruction (udf #0); must die with SIGILL. */
#include <stdio.h>

int main(void)
{
    printf("about to execute udf #0\n");
    fflush(stdout);
    __asm__ volatile("udf #0");
    printf("still alive?!\n");
    return 0;
}
