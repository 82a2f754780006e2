/* checks a variadic function reading int arguments with va_arg */
#include <stdio.h>
#include <stdarg.h>
static int sum(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}
int main(void)
{
    printf("%d %d %d\n", sum(0), sum(3, 1, 2, 3), sum(7, 1, 2, 3, 4, 5, 6, 7));
    return 0;
}
