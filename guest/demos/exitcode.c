/* exitcode.c: one line to stdout, one to stderr, exit status 42. */
#include <stdio.h>

int main(void)
{
    printf("this goes to stdout\n");
    fprintf(stderr, "this goes to stderr\n");
    return 42;
}
