/* printf.c: the printf family (integer/char/string/pointer formats, glibc-identical output). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Output goes either to a stream or to a bounded buffer; n counts every byte
 * the format produces, which is what the printf family returns. */
struct sink {
    FILE *f;
    char *buf;
    size_t cap;
    size_t n;
    int err;
};

static void emit(struct sink *s, const char *p, size_t len)
{
    if (len == 0)
        return;
    if (s->f) {
        if (__garm_fwrite_bytes(s->f, p, len))
            s->err = 1;
    } else if (s->cap > 0 && s->n < s->cap - 1) {
        size_t room = s->cap - 1 - s->n;
        memcpy(s->buf + s->n, p, len < room ? len : room);
    }
    s->n += len;
}

static void pad(struct sink *s, char c, long count)
{
    char block[32];
    if (count <= 0)
        return;
    memset(block, c, sizeof block);
    while (count > 0) {
        long k = count < (long)sizeof block ? count : (long)sizeof block;
        emit(s, block, (size_t)k);
        count -= k;
    }
}

enum {
    F_MINUS = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_HASH = 16,
};
enum { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_J, L_T };

/* Pad a finished field of len bytes to width (spaces; '-' pads on the right). */
static void field(struct sink *s, const char *p, size_t len, int flags, long width)
{
    if (!(flags & F_MINUS))
        pad(s, ' ', width - (long)len);
    emit(s, p, len);
    if (flags & F_MINUS)
        pad(s, ' ', width - (long)len);
}

static void format_int(struct sink *s, uint64_t v, int neg, char conv, int flags,
                       long width, long prec)
{
    char digits[24];  /* 22 octal digits fill 64 bits */
    int nd = 0;
    const char *set = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    unsigned base = (conv == 'o') ? 8 : (conv == 'x' || conv == 'X' || conv == 'p') ? 16 : 10;

    int zero_pad = (flags & F_ZERO) && !(flags & F_MINUS);
    if (prec >= 0)
        zero_pad = 0;  /* C: an explicit precision disables the 0 flag for integers */
    else
        prec = 1;

    uint64_t t = v;
    while (t) {
        digits[sizeof digits - 1 - nd++] = set[t % base];
        t /= base;
    }
    /* nd == 0 when v == 0: precision supplies the lone "0" unless it is 0. */

    const char *prefix = "";
    if (conv == 'd' || conv == 'i') {
        if (neg)
            prefix = "-";
        else if (flags & F_PLUS)
            prefix = "+";
        else if (flags & F_SPACE)
            prefix = " ";
    } else if (conv == 'o' && (flags & F_HASH)) {
        if (prec <= nd)
            prec = nd + 1;  /* '#' forces a leading 0 digit */
    } else if ((conv == 'x' || conv == 'X') && (flags & F_HASH) && v != 0) {
        prefix = conv == 'x' ? "0x" : "0X";
    } else if (conv == 'p') {
        prefix = (flags & F_PLUS) ? "+0x" : (flags & F_SPACE) ? " 0x" : "0x";
    }

    size_t plen = strlen(prefix);
    long zeros = prec > nd ? prec - nd : 0;
    long total = (long)plen + zeros + nd;
    if (zero_pad && width > total) {
        zeros += width - total;
        total = width;
    }
    if (!(flags & F_MINUS))
        pad(s, ' ', width - total);
    emit(s, prefix, plen);
    pad(s, '0', zeros);
    emit(s, digits + sizeof digits - nd, (size_t)nd);
    if (flags & F_MINUS)
        pad(s, ' ', width - total);
}

static int format(struct sink *s, const char *fmt, va_list ap)
{
    while (*fmt) {
        if (*fmt != '%') {
            const char *q = strchr(fmt, '%');
            size_t k = q ? (size_t)(q - fmt) : strlen(fmt);
            emit(s, fmt, k);
            fmt += k;
            continue;
        }
        const char *spec = fmt++;

        int flags = 0;
        for (;; fmt++) {
            if (*fmt == '-') flags |= F_MINUS;
            else if (*fmt == '0') flags |= F_ZERO;
            else if (*fmt == '+') flags |= F_PLUS;
            else if (*fmt == ' ') flags |= F_SPACE;
            else if (*fmt == '#') flags |= F_HASH;
            else break;
        }

        long width = 0;
        if (*fmt == '*') {
            int w = va_arg(ap, int);
            if (w < 0) {
                flags |= F_MINUS;
                width = -(long)w;
            } else {
                width = w;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                width = width * 10 + (*fmt++ - '0');
        }

        long prec = -1;
        if (*fmt == '.') {
            fmt++;
            if (*fmt == '*') {
                int p = va_arg(ap, int);
                prec = p < 0 ? -1 : p;  /* negative precision: as if omitted */
                fmt++;
            } else {
                prec = 0;
                while (*fmt >= '0' && *fmt <= '9')
                    prec = prec * 10 + (*fmt++ - '0');
            }
        }

        int len = L_NONE;
        switch (*fmt) {
        case 'h':
            len = L_H;
            if (*++fmt == 'h') { len = L_HH; fmt++; }
            break;
        case 'l':
            len = L_L;
            if (*++fmt == 'l') { len = L_LL; fmt++; }
            break;
        case 'q': len = L_LL; fmt++; break;
        case 'L': len = L_LL; fmt++; break;
        case 'z': len = L_Z; fmt++; break;
        case 'j': len = L_J; fmt++; break;
        case 't': len = L_T; fmt++; break;
        }

        char conv = *fmt;
        if (conv == '\0') {
            /* Truncated spec at end of format: print it verbatim. */
            emit(s, spec, (size_t)(fmt - spec));
            break;
        }
        fmt++;

        switch (conv) {
        case 'd':
        case 'i': {
            int64_t v;
            if (len == L_NONE) v = va_arg(ap, int);
            else if (len == L_HH) v = (signed char)va_arg(ap, int);
            else if (len == L_H) v = (short)va_arg(ap, int);
            else v = va_arg(ap, long);  /* l, ll, z, j, t are all 64-bit on LP64 */
            uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
            format_int(s, mag, v < 0, conv, flags, width, prec);
            break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            uint64_t v;
            if (len == L_NONE) v = va_arg(ap, unsigned);
            else if (len == L_HH) v = (unsigned char)va_arg(ap, unsigned);
            else if (len == L_H) v = (unsigned short)va_arg(ap, unsigned);
            else v = va_arg(ap, unsigned long);
            format_int(s, v, 0, conv, flags, width, prec);
            break;
        }
        case 'p': {
            void *p = va_arg(ap, void *);
            if (!p)
                field(s, "(nil)", 5, flags, width);
            else
                format_int(s, (uintptr_t)p, 0, 'p', flags, width, prec);
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            field(s, &c, 1, flags, width);
            break;
        }
        case 's': {
            const char *str = va_arg(ap, const char *);
            if (!str)
                str = (prec < 0 || prec >= 6) ? "(null)" : "";  /* glibc's choice */
            size_t n = prec >= 0 ? strnlen(str, (size_t)prec) : strlen(str);
            field(s, str, n, flags, width);
            break;
        }
        case 'n': {
            /* Stores the count so far; sized by the length modifier. */
            void *p = va_arg(ap, void *);
            if (len == L_HH) *(signed char *)p = (signed char)s->n;
            else if (len == L_H) *(short *)p = (short)s->n;
            else if (len == L_NONE) *(int *)p = (int)s->n;
            else *(long *)p = (long)s->n;
            break;
        }
        case '%':
            emit(s, "%", 1);
            break;
        default:
            /* Unknown conversion: glibc prints the whole spec as written. */
            emit(s, spec, (size_t)(fmt - spec));
            break;
        }
    }
    /* The return type is int; callers never format 2 GiB in practice. */
    return (int)s->n;
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
    struct sink s = {.f = f};
    if (f->mode == GARM_UNBUF && f != stdin) {
        /* Like glibc, give an unbuffered stream a buffer for the duration of
         * the call, so one printf is one write() rather than one per piece. */
        unsigned char tmp[256];
        f->buf = tmp;
        f->cap = sizeof tmp;
        f->len = 0;
        f->mode = GARM_FULLBUF;
        format(&s, fmt, ap);
        if (fflush(f))
            s.err = 1;
        f->mode = GARM_UNBUF;
        f->buf = NULL;
        f->cap = 0;
    } else {
        format(&s, fmt, ap);
    }
    return s.err ? -1 : (int)s.n;
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    struct sink s = {.buf = buf, .cap = n};
    format(&s, fmt, ap);
    if (n > 0)
        buf[s.n < n - 1 ? s.n : n - 1] = '\0';
    return (int)s.n;
}

int vsprintf(char *buf, const char *fmt, va_list ap)
{
    return vsnprintf(buf, SIZE_MAX, fmt, ap);
}

int vprintf(const char *fmt, va_list ap)
{
    return vfprintf(stdout, fmt, ap);
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return r;
}

int fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}

int sprintf(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf, SIZE_MAX, fmt, ap);
    va_end(ap);
    return r;
}

int snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}
