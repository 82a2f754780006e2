/* fault.c: stores through a pointer to unmapped address 0x7ffffff0000; must die with SIGSEGV. */
#include <stdio.h>

int main(void)
{
    printf("about to fault\n");
    fflush(stdout);
    volatile int *p = (volatile int *)0x7ffffff0000UL;
    *p = 1;
    printf("still alive?!\n");
    return 0;
}
