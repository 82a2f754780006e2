/* scanf.c: the scanf family (scanf, fscanf, sscanf and their v- forms), following glibc's rules
 * for what each conversion consumes, when it fails and what it returns.
 *
 * Supported: whitespace directives, literal characters, %%, %d %i %u %o %x %X %p (with glibc's
 * "(nil)"), %c, %s,
 * %[set] / %[^set] (']' first, ranges a-z), %n, %a %e %f %g %A %E %F %G, '*' (no assignment),
 * field widths, the 'm' allocation flag for %c %s %[, and the length modifiers hh h l ll q L j z t
 * (on integers; L means long long there, as in glibc).
 * Not supported (the directive is a matching failure): long double (%Lf etc.: AArch64 long double
 * is binary128), wide characters (%lc %ls %l[ %C %S), positional arguments (%1$d).
 *
 * Input comes one character at a time and at most one character is pushed back (ungetc on a
 * stream), so fscanf leaves a stream exactly where the conversion stopped. Integers accumulate
 * with strtoull-style saturation and are then narrowed like glibc's strtol result; floating
 * fields are collected with glibc's prefix rules ("1e" is consumed and converts to 1, "0x" alone
 * fails) into a canonical string that strtod/strtof round once. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define NONE (-2) /* "no character read": the field width ran out */

struct src {
    FILE *f;                /* a stream, or */
    const unsigned char *s; /* a string */
    long count;             /* characters consumed, for %n */
};

static int get(struct src *in)
{
    int c;
    if (in->f)
        c = getc(in->f);
    else
        c = *in->s ? *in->s++ : EOF;
    if (c != EOF)
        in->count++;
    return c;
}

static void unget(struct src *in, int c)
{
    if (c < 0)
        return;
    in->count--;
    if (in->f)
        ungetc(c, in->f);
    else
        in->s--;
}

/* Accepts the current character against the width and reads the next one (NONE when the width
 * is used up; a width of -1 is unlimited). */
static int next(struct src *in, long *w)
{
    if (*w > 0)
        (*w)--;
    return *w != 0 ? get(in) : NONE;
}

/* Skips whitespace; returns EOF if the input ended. */
static int skip_ws(struct src *in)
{
    int c;
    do
        c = get(in);
    while (isspace(c));
    unget(in, c);
    return c == EOF ? EOF : 0;
}

static int digit_in_base(int c, int base)
{
    int v = __garm_digit_value(c);
    return v < base ? v : -1;
}

/* Integer field of conversion conv (whitespace already skipped): sign, then an optional 0 / 0x
 * prefix for base 0 or 16, then digits. Returns 1 with the value as strtoll (d, i) or strtoull
 * (the others) would give it, 0 on a matching failure. */
static int scan_int(struct src *in, long w, int base, int conv, unsigned long long *out)
{
    int c = get(in), neg = 0, sign = 0, any = 0, ovf = 0;
    unsigned long long mag = 0;
    if (c == '+' || c == '-') {
        neg = c == '-';
        sign = 1;
        c = next(in, &w);
    }
    if (w != 0 && c == '0') {
        any = 1;
        c = next(in, &w);
        if (w != 0 && c >= 0 && (c | 32) == 'x') {
            if (base == 0)
                base = 16;
            if (base == 16)
                c = next(in, &w);
        } else if (base == 0) {
            base = 8;
        }
    }
    if (base == 0)
        base = 10;
    for (int v; c >= 0 && (v = digit_in_base(c, base)) >= 0; c = next(in, &w)) {
        any = 1;
        if (mag > (ULLONG_MAX - (unsigned)v) / (unsigned)base)
            ovf = 1;
        else
            mag = mag * (unsigned)base + (unsigned)v;
    }
    if (!any && !sign && conv == 'p' && (w < 0 || w >= 5) && c == '(') {
        /* glibc's %p also reads "(nil)"; a mismatch loses the characters before it. */
        for (const char *q = "nil)"; *q; q++) {
            c = get(in);
            if (c < 0 || (*q == ')' ? c : c | 32) != *q) {
                unget(in, c);
                return 0;
            }
        }
        *out = 0;
        return 1;
    }
    unget(in, c);
    if (!any)
        return 0;
    if (conv == 'd' || conv == 'i') {
        long long v;
        if (neg && (ovf || mag > (unsigned long long)LLONG_MAX + 1)) {
            errno = ERANGE;
            v = LLONG_MIN;
        } else if (!neg && (ovf || mag > (unsigned long long)LLONG_MAX)) {
            errno = ERANGE;
            v = LLONG_MAX;
        } else {
            v = neg ? (long long)(0 - mag) : (long long)mag;
        }
        *out = (unsigned long long)v;
    } else if (ovf) {
        errno = ERANGE;
        *out = ULLONG_MAX;
    } else {
        *out = neg ? 0 - mag : mag;
    }
    return 1;
}

/* ---- floating-point fields ---- */

#define FDIGITS 800 /* strtod uses this many significant digits; one more only acts as sticky */

struct fnum {
    char digs[FDIGITS + 1];
    int nsig, cap, sticky, dot;
    long dexp; /* position of the point, in digits (decimal) or hex digits */
};

static void mant_digit(struct fnum *x, int v)
{
    if (x->nsig == 0 && v == 0) {
        if (x->dot && x->dexp > -1000000000)
            x->dexp--;
        return;
    }
    if (x->nsig < x->cap)
        x->digs[x->nsig++] = "0123456789abcdef"[v];
    else if (v)
        x->sticky = 1;
    if (!x->dot && x->dexp < 1000000000)
        x->dexp++;
}

static char *put_long(char *p, long v)
{
    char tmp[24];
    int n = 0;
    unsigned long u = v < 0 ? 0 - (unsigned long)v : (unsigned long)v;
    if (v < 0)
        *p++ = '-';
    do
        tmp[n++] = (char)('0' + u % 10);
    while (u /= 10);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* Floating field (whitespace already skipped). Returns 1 and the canonical text of the value
 * in buf (converted by the caller), or 0 on a matching failure. */
static int scan_float(struct src *in, long w, char *buf)
{
    static struct fnum x; /* big: kept off the stack (the runtime is single-threaded) */
    int c = get(in), neg = 0;
    char *p = buf;
    if (c == '+' || c == '-') {
        neg = c == '-';
        c = next(in, &w);
    }
    if (neg)
        *p++ = '-';
    if (c >= 0 && ((c | 32) == 'n' || (c | 32) == 'i')) {
        const char *word = (c | 32) == 'n' ? "nan" : "inf";
        for (int i = 1; i < 3; i++) {
            c = next(in, &w);
            if (c < 0 || (c | 32) != word[i])
                return 0; /* glibc keeps the mismatching character consumed */
        }
        if (word[0] == 'i') {
            c = next(in, &w);
            if (c >= 0 && (c | 32) == 'i') {
                for (const char *q = "nity"; *q; q++) {
                    c = next(in, &w);
                    if (c < 0 || (c | 32) != *q)
                        return 0;
                }
            } else {
                unget(in, c);
            }
        }
        memcpy(p, word, 4);
        return 1;
    }

    int hex = 0, got_digit = 0, got_e = 0, any = 0, last = 0, eneg = 0;
    long ex = 0;
    x.nsig = x.sticky = x.dot = 0;
    x.dexp = 0;
    x.cap = FDIGITS;
    if (w != 0 && c == '0') {
        got_digit = any = 1;
        c = next(in, &w);
        if (w != 0 && c >= 0 && (c | 32) == 'x') {
            if (w == 1) {
                /* glibc: the width ends right after "0x": the number is the 0. */
                unget(in, c);
                c = NONE;
            } else {
                hex = 1;
                got_digit = any = 0;
                x.cap = 16;
                c = next(in, &w);
            }
        }
    }
    int exp_char = hex ? 'p' : 'e', after_prefix = 0;
    for (; c >= 0; c = next(in, &w)) {
        int v = hex ? digit_in_base(c, 16) : digit_in_base(c, 10);
        if (c >= '0' && c <= '9' && got_e) {
            if (ex < 100000000)
                ex = ex * 10 + (c - '0');
            last = c;
        } else if (v >= 0 && !got_e) {
            mant_digit(&x, v);
            got_digit = any = 1;
            last = c;
        } else if (got_e && last == exp_char && (c == '-' || c == '+')) {
            eneg = c == '-';
            last = c;
        } else if (got_digit && !got_e && (c | 32) == exp_char) {
            got_e = x.dot = 1;
            last = exp_char;
        } else if (c == '.' && !x.dot) {
            x.dot = 1;
            last = c;
        } else {
            break;
        }
        after_prefix = 1;
    }
    unget(in, c);
    if (hex ? !after_prefix : !any)
        return 0;
    if (x.nsig == 0) {
        *p++ = '0';
        *p = 0;
        return 1;
    }
    if (x.sticky)
        x.digs[x.nsig++] = '1';
    long e = eneg ? -ex : ex;
    *p++ = '0';
    if (hex) {
        *p++ = 'x';
        e += 4 * x.dexp;
    } else {
        e += x.dexp;
    }
    *p++ = '.';
    memcpy(p, x.digs, (size_t)x.nsig);
    p += x.nsig;
    *p++ = hex ? 'p' : 'e';
    p = put_long(p, e);
    *p = 0;
    return 1;
}

/* ---- strings ---- */

/* Destination of %c %s %[: a caller's array, an 'm' allocation, or nothing (suppressed). */
struct out {
    char *p;
    size_t n, cap;
    char **mptr; /* 'm': where to store the allocation */
    int fail;
};

static void out_put(struct out *o, int c)
{
    if (o->mptr) {
        if (o->fail)
            return;
        if (o->n + 1 >= o->cap) {
            size_t cap = o->cap ? o->cap * 2 : 32;
            char *q = realloc(o->p, cap);
            if (!q) {
                o->fail = 1;
                return;
            }
            o->p = q;
            o->cap = cap;
        }
    }
    if (o->p)
        o->p[o->n] = (char)c;
    o->n++;
}

/* ---- the engine ---- */

enum { SZ_HH, SZ_H, SZ_INT, SZ_L, SZ_LL, SZ_LD };

static void store_int(void *dst, int size, unsigned long long v)
{
    switch (size) {
    case SZ_HH: *(unsigned char *)dst = (unsigned char)v; break;
    case SZ_H: *(unsigned short *)dst = (unsigned short)v; break;
    case SZ_INT: *(unsigned int *)dst = (unsigned int)v; break;
    default: *(unsigned long long *)dst = v; break;
    }
}

static int scan(struct src *in, const char *format, va_list ap)
{
    const unsigned char *f = (const unsigned char *)format;
    int done = 0;
    while (*f) {
        if (isspace(*f)) {
            while (isspace(*f))
                f++;
            skip_ws(in);
            continue;
        }
        if (*f != '%' || f[1] == '%') {
            int lit = *f;
            if (lit == '%') {
                f += 2;
                if (skip_ws(in) == EOF) /* glibc skips whitespace before "%%" */
                    goto input_failure;
            } else {
                f++;
            }
            int c = get(in);
            if (c == EOF)
                goto input_failure;
            if (c != lit) {
                unget(in, c);
                goto matching_failure;
            }
            continue;
        }
        f++;
        int suppress = 0, alloc = 0, size = SZ_INT;
        long width = -1;
        if (*f == '*') {
            suppress = 1;
            f++;
        }
        if (isdigit(*f)) {
            width = 0;
            while (isdigit(*f)) {
                if (width < 100000000)
                    width = width * 10 + (*f - '0');
                f++;
            }
            if (width == 0)
                width = -1;
            if (*f == '$')
                goto matching_failure; /* positional arguments: not supported */
        }
        if (*f == 'm') {
            alloc = 1;
            f++;
        }
        switch (*f) {
        case 'h':
            f++;
            size = SZ_H;
            if (*f == 'h') {
                f++;
                size = SZ_HH;
            }
            break;
        case 'l':
            f++;
            size = SZ_L;
            if (*f == 'l') {
                f++;
                size = SZ_LL;
            }
            break;
        case 'L': f++; size = SZ_LD; break;
        case 'q': f++; size = SZ_LL; break;
        case 'j': case 'z': case 't': f++; size = SZ_L; break;
        }
        int conv = *f;
        if (!conv)
            goto matching_failure;
        f++;

        if (conv == 'n') {
            if (!suppress)
                store_int(va_arg(ap, void *), size, (unsigned long long)in->count);
            continue;
        }
        if (conv != 'c' && conv != '[' && skip_ws(in) == EOF)
            goto input_failure;

        switch (conv) {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': {
            int base = conv == 'd' || conv == 'u' ? 10 : conv == 'i' ? 0 : conv == 'o' ? 8 : 16;
            unsigned long long v;
            if (!scan_int(in, width, base, conv, &v))
                goto matching_failure;
            if (!suppress) {
                if (conv == 'p')
                    *va_arg(ap, void **) = (void *)(uintptr_t)v;
                else
                    store_int(va_arg(ap, void *), size, v);
                done++;
            }
            break;
        }
        case 'a': case 'A': case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
            char buf[FDIGITS + 48];
            if (size == SZ_LD || size == SZ_LL)
                goto matching_failure; /* long double (L, ll, q): not supported */
            if (!scan_float(in, width, buf))
                goto matching_failure;
            uint64_t bits = __garm_strtofp_bits(buf, NULL, size != SZ_L);
            if (!suppress) {
                if (size == SZ_L) {
                    memcpy(va_arg(ap, void *), &bits, 8); /* double */
                } else {
                    uint32_t b32 = (uint32_t)bits;
                    memcpy(va_arg(ap, void *), &b32, 4); /* float */
                }
                done++;
            }
            break;
        }
        case 'c': case 's': case '[': {
            unsigned char set[256];
            if (size == SZ_L)
                goto matching_failure; /* wide characters: not supported */
            if (conv == '[') {
                int neg = 0;
                if (*f == '^') {
                    neg = 1;
                    f++;
                }
                memset(set, 0, sizeof set);
                const unsigned char *start = f;
                if (*f == ']' || *f == '-')
                    set[*f++] = 1;
                for (; *f && *f != ']'; f++) {
                    /* glibc: "a-z" with the bounds in order is a range, otherwise '-' is
                     * itself; the lower bound is the format character before the '-'. */
                    if (*f == '-' && f > start && f[1] && f[1] != ']' && f[-1] <= f[1]) {
                        for (int ch = f[-1]; ch < f[1]; ch++)
                            set[ch] = 1;
                    } else {
                        set[*f] = 1;
                    }
                }
                if (!*f)
                    goto matching_failure; /* no closing ']' */
                f++;
                if (neg)
                    for (int i = 0; i < 256; i++)
                        set[i] = !set[i];
            }
            struct out o = {0};
            if (!suppress) {
                if (alloc)
                    o.mptr = va_arg(ap, char **);
                else
                    o.p = va_arg(ap, char *);
            }
            long w = width;
            if (conv == 'c' && w < 0)
                w = 1;
            int c = get(in);
            if (c == EOF)
                goto input_failure;
            if (conv == 's' ? isspace(c) : conv == '[' ? !set[c] : 0) {
                unget(in, c);
                goto matching_failure;
            }
            for (; c >= 0; c = next(in, &w)) {
                if (conv == 's' ? isspace(c) : conv == '[' ? !set[c] : 0)
                    break;
                out_put(&o, c);
            }
            unget(in, c);
            if (conv != 'c')
                out_put(&o, 0);
            if (o.mptr) {
                if (o.fail) {
                    free(o.p);
                    errno = ENOMEM;
                    goto input_failure;
                }
                if (!o.p) /* %mc of zero characters cannot happen; keep the pointer valid */
                    o.p = malloc(1);
                *o.mptr = o.p;
            }
            if (!suppress)
                done++;
            break;
        }
        default:
            goto matching_failure;
        }
    }
    return done;
input_failure:
    return done ? done : EOF;
matching_failure:
    return done;
}

int vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap)
{
    struct src in = {.f = f};
    return scan(&in, fmt, ap);
}

int vsscanf(const char *restrict s, const char *restrict fmt, va_list ap)
{
    struct src in = {.s = (const unsigned char *)s};
    return scan(&in, fmt, ap);
}

int vscanf(const char *restrict fmt, va_list ap) { return vfscanf(stdin, fmt, ap); }

int fscanf(FILE *restrict f, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfscanf(f, fmt, ap);
    va_end(ap);
    return r;
}

int sscanf(const char *restrict s, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsscanf(s, fmt, ap);
    va_end(ap);
    return r;
}

int scanf(const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfscanf(stdin, fmt, ap);
    va_end(ap);
    return r;
}
