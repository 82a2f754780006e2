/* checks va_copy lets a variadic argument list be traversed twice */
#include <stdio.h>
#include <stdarg.h>
static void twice(int n, ...)
{
    va_list ap, cp;
    va_start(ap, n);
    va_copy(cp, ap);
    int s = 0, m = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    for (int i = 0; i < n; i++) {
        int v = va_arg(cp, int);
        if (v > m)
            m = v;
    }
    va_end(cp);
    va_end(ap);
    printf("sum=%d max=%d\n", s, m);
}
int main(void)
{
    twice(5, 4, 9, 2, 7, 1);
    return 0;
}
