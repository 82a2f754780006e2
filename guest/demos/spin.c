/* spin.c: never terminates (for instruction-budget / timeout tests). */
#include <stdio.h>

int main(void)
{
    printf("spinning forever\n");
    fflush(stdout);
    volatile unsigned long counter = 0;
    for (;;)
        counter++;
}
