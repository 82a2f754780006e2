/* checks variadic arguments after several fixed parameters */
#include <stdio.h>
#include <stdarg.h>
static long weigh(int a, long b, const char *tag, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    long s = a + b;
    for (int i = 0; i < n; i++)
        s += (long)(i + 1) * va_arg(ap, int);
    va_end(ap);
    printf("%s ", tag);
    return s;
}
int main(void)
{
    printf("%ld\n", weigh(1, 2, "w", 4, 10, 20, 30, 40));
    return 0;
}
