/* cat.c: copies stdin to stdout byte by byte; reports the line count on stderr. */
#include <stdio.h>

int main(void)
{
    long lines = 0, bytes = 0;
    int c;
    while ((c = getchar()) != EOF) {
        putchar(c);
        bytes++;
        if (c == '\n')
            lines++;
    }
    fflush(stdout);
    fprintf(stderr, "cat: %ld lines, %ld bytes\n", lines, bytes);
    return 0;
}
