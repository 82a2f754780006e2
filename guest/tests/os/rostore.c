/* rostore.c: a store into read-only data (argv[1] "rodata") or into the program's own code
 * ("text") is a SIGSEGV on Linux, as the segments are mapped without write permission. */
#include <stdio.h>
#include <string.h>

static const char message[] = "constant";

int main(int argc, char **argv)
{
    printf("before\n");
    fflush(stdout);
    volatile char *p = (volatile char *)message;
    if (argc > 1 && strcmp(argv[1], "text") == 0)
        p = (volatile char *)(void *)main;
    p[0] = 'X';
    printf("after: %c\n", p[0]);
    return 0;
}
