/* varargs.c: defining variadic functions with the va_list builtins (AAPCS64's layout): sums,
 * a small printf, va_copy, va_list passed on to another function. */
#include "testio.h"

long sum(int n, ...)
{
    __builtin_va_list ap;
    __builtin_va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++)
        s += __builtin_va_arg(ap, long);
    __builtin_va_end(ap);
    return s;
}

int count_until_zero(int first, ...)
{
    __builtin_va_list ap, again;
    __builtin_va_start(ap, first);
    __builtin_va_copy(again, ap);
    int n = first != 0;
    while (__builtin_va_arg(ap, int) != 0)
        n++;
    int twice = __builtin_va_arg(again, int);
    return n * 100 + twice;
}

int vformat(char *out, char *fmt, __builtin_va_list ap)
{
    int n = 0;
    for (char *p = fmt; *p; p++) {
        if (*p != '%') {
            out[n++] = *p;
            continue;
        }
        p++;
        if (*p == 'd') {
            long v = __builtin_va_arg(ap, int);
            char tmp[24];
            int k = 0;
            if (v < 0) { out[n++] = '-'; v = -v; }
            do { tmp[k++] = '0' + v % 10; v /= 10; } while (v);
            while (k) out[n++] = tmp[--k];
        } else if (*p == 's') {
            for (char *s = __builtin_va_arg(ap, char *); *s; s++) out[n++] = *s;
        } else if (*p == 'c') {
            out[n++] = (char)__builtin_va_arg(ap, int);
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
    return n;
}

int format(char *out, char *fmt, ...)
{
    __builtin_va_list ap;
    __builtin_va_start(ap, fmt);
    int n = vformat(out, fmt, ap);
    __builtin_va_end(ap);
    return n;
}

int main(void)
{
    out(sum(3, 10L, 20L, 30L));
    out(sum(6, 1L, 2L, 3L, 4L, 5L, 6L));
    out(count_until_zero(5, 6, 7, 0));
    char buf[128];
    int n = format(buf, "%d + %d = %d, %s%c", 2, -3, -1, "ok", '!');
    puts_(buf);
    out(n);
    return 0;
}
