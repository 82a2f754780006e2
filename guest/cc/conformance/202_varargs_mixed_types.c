/* checks va_arg with int, long, pointer and promoted char arguments */
#include <stdio.h>
#include <stdarg.h>
static void show(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    for (const char *p = fmt; *p; p++) {
        if (*p == 'i')
            printf("i:%d ", va_arg(ap, int));
        else if (*p == 'l')
            printf("l:%ld ", va_arg(ap, long));
        else if (*p == 's')
            printf("s:%s ", va_arg(ap, char *));
        else if (*p == 'c')
            printf("c:%c ", va_arg(ap, int));
    }
    va_end(ap);
    printf("\n");
}
int main(void)
{
    char ch = 'Q';
    show("ilsc", -5, 1L << 40, "str", ch);
    show("lll", 1L, 2L, 3L);
    return 0;
}
