/* checks passing a va_list on to vsnprintf in a printf-like wrapper */
#include <stdio.h>
#include <stdarg.h>
static char buf[64];
static int fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return n;
}
int main(void)
{
    int n = fmt("[%d|%s|%05x]", -12, "ab", 255);
    printf("%s %d\n", buf, n);
    return 0;
}
