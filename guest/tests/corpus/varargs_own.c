/* Variadic functions of our own: sums, a mini formatter, va_copy, mixed int/long/pointer args. */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static long sum(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static long lsum(const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    long s = 0;
    for (const char *t = types; *t; t++) {
        switch (*t) {
        case 'i': s = s * 3 + va_arg(ap, int); break;
        case 'l': s = s * 3 + va_arg(ap, long); break;
        case 's': s = s * 3 + (long)strlen(va_arg(ap, const char *)); break;
        case 'c': s = s * 3 + (char)va_arg(ap, int); break;
        }
    }
    va_end(ap);
    return s;
}

static int fmt(char *out, const char *f, ...)
{
    va_list ap, ap2;
    va_start(ap, f);
    va_copy(ap2, ap);
    int n = 0;
    for (; *f; f++) {
        if (*f != '%') { out[n++] = *f; continue; }
        f++;
        if (*f == 'd') {
            int v = va_arg(ap, int);
            char tmp[16];
            int k = 0;
            unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
            do tmp[k++] = (char)('0' + u % 10); while (u /= 10);
            if (v < 0) out[n++] = '-';
            while (k) out[n++] = tmp[--k];
        } else if (*f == 's') {
            const char *s = va_arg(ap, const char *);
            while (*s) out[n++] = *s++;
        }
    }
    out[n] = 0;
    /* the copy walks the same arguments again: count the first int */
    int first = va_arg(ap2, int);
    va_end(ap2);
    va_end(ap);
    return first;
}

static void vlog(const char *prefix, const char *f, va_list ap)
{
    char buf[128];
    vsnprintf(buf, sizeof buf, f, ap);
    printf("[%s] %s\n", prefix, buf);
}

static void logf_(const char *prefix, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vlog(prefix, f, ap);
    va_end(ap);
}

int main(void)
{
    printf("sum0=%ld sum3=%ld sum12=%ld\n", sum(0), sum(3, 1, -2, 3),
           sum(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1000));
    printf("lsum=%ld\n", lsum("ilscil", 5, 1L << 40, "hello", 'z', -7, -(1L << 33)));
    char out[128];
    int first = fmt(out, "a=%d b=%s c=%d d=%d", -12345, "str", 0, 2147483647);
    printf("fmt: '%s' first=%d\n", out, first);
    logf_("info", "%d items, %s, %5ld|%-5x|", 3, "ok", 42L, 255u);
    logf_("warn", "%c%c%c %08lx", 'g', 'a', 'r', 0xdeadbeefUL);
    return 0;
}
