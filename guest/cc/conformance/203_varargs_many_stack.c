/* checks va_arg past the register-saved arguments (more than eight variadic ints) */
#include <stdio.h>
#include <stdarg.h>
static long total(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 3 + va_arg(ap, long);
    va_end(ap);
    return s;
}
int main(void)
{
    printf("%ld\n", total(12, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L));
    return 0;
}
