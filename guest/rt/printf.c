/* printf.c: the printf family (integer, char, string, pointer and floating-point formats, with
 * glibc-identical output). */
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

/* Floating point (%f %e %g %a): exact, from the double's bits. A double is m * 2^e; its decimal
 * digits are those of m * 2^e (e >= 0) or of m * 5^-e shifted -e places (e < 0), at most 767
 * significant digits, computed in base-1e9 limbs and then rounded like glibc: in the current
 * rounding mode, ties to even. */
enum { FP_LIMBS = 90, FP_DIGITS = 800 };

struct decimal {
    char dig[FP_DIGITS]; /* significant digits, no leading zero; n == 0 means the value 0 */
    int n;
    int dp;              /* value = 0.dig * 10^dp */
};

static void big_mul(uint32_t *limb, int *len, uint32_t k)
{
    uint64_t carry = 0;
    for (int i = 0; i < *len; i++) {
        uint64_t t = (uint64_t)limb[i] * k + carry;
        limb[i] = (uint32_t)(t % 1000000000u);
        carry = t / 1000000000u;
    }
    while (carry) {
        limb[(*len)++] = (uint32_t)(carry % 1000000000u);
        carry /= 1000000000u;
    }
}

static void to_decimal(uint64_t m, int e, struct decimal *d)
{
    uint32_t limb[FP_LIMBS]; /* little-endian base 1e9 */
    int len = 0;
    d->n = 0;
    d->dp = 1;
    if (m == 0)
        return;
    while (m) {
        limb[len++] = (uint32_t)(m % 1000000000u);
        m /= 1000000000u;
    }
    int shift = 0; /* decimal places to the right of the integer in limb[] */
    for (; e > 0; e -= e > 29 ? 29 : e)
        big_mul(limb, &len, 1u << (e > 29 ? 29 : e));
    for (; e < 0; e += e < -13 ? 13 : -e) {
        int k = e < -13 ? 13 : -e;
        uint32_t p = 1;
        for (int i = 0; i < k; i++)
            p *= 5;
        big_mul(limb, &len, p);
        shift += k;
    }
    /* limbs to digits, most significant first */
    char tmp[9];
    int first = 1;
    for (int i = len - 1; i >= 0; i--) {
        uint32_t v = limb[i];
        for (int j = 8; j >= 0; j--) {
            tmp[j] = (char)('0' + v % 10);
            v /= 10;
        }
        for (int j = 0; j < 9; j++) {
            if (first && tmp[j] == '0')
                continue;
            first = 0;
            d->dig[d->n++] = tmp[j];
        }
    }
    d->dp = d->n - shift;
    while (d->n > 0 && d->dig[d->n - 1] == '0')
        d->n--;
}

/* Keep the first `keep` digits (keep may be <= 0: everything is rounded away). */
static void round_decimal(struct decimal *d, int keep, int neg)
{
    if (keep >= d->n)
        return;
    int up;
    int mode = __garm_round_mode();
    if (mode == 0) {
        int first = keep >= 0 ? d->dig[keep] - '0' : 0;
        int rest = 0;
        for (int i = keep < 0 ? 0 : keep + 1; i < d->n; i++)
            rest |= d->dig[i] != '0';
        if (keep < 0)
            up = 0;
        else if (first != 5)
            up = first > 5;
        else
            up = rest || (keep > 0 && ((d->dig[keep - 1] - '0') & 1));
    } else {
        up = mode == 1 ? !neg : mode == 2 ? neg : 0;  /* n > keep: something nonzero is dropped */
    }
    if (!up) {
        d->n = keep < 0 ? 0 : keep;
        while (d->n > 0 && d->dig[d->n - 1] == '0')
            d->n--;
        if (d->n == 0)
            d->dp = 1;
        return;
    }
    if (keep <= 0) {
        d->dp = d->dp - keep + 1;
        d->dig[0] = '1';
        d->n = 1;
        return;
    }
    int i = keep - 1;
    while (i >= 0 && d->dig[i] == '9')
        i--;
    if (i < 0) {
        d->dig[0] = '1';
        d->n = 1;
        d->dp++;
        return;
    }
    d->dig[i]++;
    d->n = i + 1;
}

/* Emit count digits from position pos on, in runs (the zeros in blocks). */
static void emit_digits(struct sink *s, const struct decimal *d, int pos, long count)
{
    while (count > 0) {
        if (pos < 0 || pos >= d->n) {
            long z = pos < 0 ? -pos : count;
            if (z > count)
                z = count;
            pad(s, '0', z);
            pos += (int)z;
            count -= z;
        } else {
            long k = d->n - pos;
            if (k > count)
                k = count;
            emit(s, d->dig + pos, (size_t)k);
            pos += (int)k;
            count -= k;
        }
    }
}

/* An exponent suffix: the mark, its sign, at least `min` decimal digits; returns its length. */
static size_t exponent(char *out, char mark, int e, int min)
{
    size_t n = 0;
    out[n++] = mark;
    out[n++] = e < 0 ? '-' : '+';
    unsigned u = (unsigned)(e < 0 ? -e : e);
    char t[5];
    int k = 0;
    do {
        t[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u || k < min);
    while (k)
        out[n++] = t[--k];
    return n;
}

static void format_float(struct sink *s, uint64_t bits, char conv, int flags, long width, long prec)
{
    int neg = (int)(bits >> 63);
    int bexp = (int)(bits >> 52) & 0x7ff;
    uint64_t frac = bits & ((1ull << 52) - 1);
    int upper = conv >= 'A' && conv <= 'Z';
    char lower = (char)(conv | 0x20);
    const char *sign = neg ? "-" : (flags & F_PLUS) ? "+" : (flags & F_SPACE) ? " " : "";
    size_t slen = strlen(sign);

    if (bexp == 0x7ff) {
        const char *w = frac ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        char buf[5];
        memcpy(buf, sign, slen);
        memcpy(buf + slen, w, 3);
        field(s, buf, slen + 3, flags, width);
        return;
    }

    if (lower == 'a') {
        /* 0x1.hhhp+E (subnormals 0x0.hhhp-1022); rounding may carry into the leading digit. */
        uint64_t lead = bexp ? 1 : 0;
        int e2 = bexp ? bexp - 1023 : (frac ? -1022 : 0);
        uint64_t mant = frac; /* 13 nibbles */
        int nd = 13;
        if (prec >= 0 && prec < 13) {
            int drop = (13 - (int)prec) * 4;
            uint64_t rem = mant & ((1ull << drop) - 1), half = 1ull << (drop - 1);
            uint64_t keep = mant >> drop;
            int mode = __garm_round_mode(), up;
            if (mode == 0)
                up = rem > half || (rem == half && ((keep | (prec == 0 ? lead : 0)) & 1));
            else
                up = rem && (mode == 1 ? !neg : mode == 2 ? neg : 0);
            keep += (uint64_t)up;
            if (keep >> (prec * 4)) {
                lead++;
                keep &= (1ull << (prec * 4)) - 1;
            }
            mant = keep;
            nd = (int)prec;
        } else if (prec < 0) {
            while (nd > 0 && !(mant & 15)) {
                mant >>= 4;
                nd--;
            }
        }
        const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
        char body[40];
        size_t n = 0;
        body[n++] = '0';
        body[n++] = upper ? 'X' : 'x';
        body[n++] = hex[lead];
        if (nd > 0 || prec > 0 || (flags & F_HASH))
            body[n++] = '.';
        for (int i = nd - 1; i >= 0; i--)
            body[n++] = hex[(mant >> (i * 4)) & 15];
        long extra = prec > nd ? prec - nd : 0;  /* precision past 13 digits: zeros */
        char expo[8];
        size_t en = exponent(expo, upper ? 'P' : 'p', e2, 1);
        long total = (long)(slen + n + en) + extra;
        int zero = (flags & F_ZERO) && !(flags & F_MINUS);
        if (!zero && !(flags & F_MINUS))
            pad(s, ' ', width - total);
        emit(s, sign, slen);
        emit(s, body, 2);
        if (zero)
            pad(s, '0', width - total);
        emit(s, body + 2, n - 2);
        pad(s, '0', extra);
        emit(s, expo, en);
        if (flags & F_MINUS)
            pad(s, ' ', width - total);
        return;
    }

    static struct decimal d;  /* 800 bytes off the stack; the runtime is single-threaded */
    uint64_t m = bexp ? frac | (1ull << 52) : frac;
    to_decimal(m, (bexp ? bexp : 1) - 1075, &d);
    if (prec < 0)
        prec = 6;

    int use_e = lower == 'e';
    int strip = 0;
    if (lower == 'g') {
        long p = prec == 0 ? 1 : prec;
        round_decimal(&d, (int)p, neg);
        int x10 = d.n ? d.dp - 1 : 0;
        if (p > x10 && x10 >= -4) {
            prec = p - 1 - x10;
        } else {
            use_e = 1;
            prec = p - 1;
        }
        strip = !(flags & F_HASH);
    } else if (use_e) {
        round_decimal(&d, (int)prec + 1, neg);
    } else {
        round_decimal(&d, d.dp + (int)prec, neg);
    }

    int x10 = d.n ? d.dp - 1 : 0;
    long ilen = 0; /* digits before the point */
    long flen;     /* digits after it */
    if (use_e) {
        ilen = 1;
        flen = prec;
        if (strip) {
            long sig = d.n > 1 ? d.n - 1 : 0;
            if (flen > sig)
                flen = sig;
        }
    } else {
        ilen = d.dp > 0 && d.n ? d.dp : 1;
        flen = prec;
        if (strip) {
            long sig = d.n - d.dp; /* significant digits after the point */
            if (sig < 0)
                sig = 0;
            if (flen > sig)
                flen = sig;
        }
    }
    int point = flen > 0 || (flags & F_HASH);
    char expo[8];
    size_t en = use_e ? exponent(expo, upper ? 'E' : 'e', x10, 2) : 0;
    long total = (long)slen + ilen + point + flen + (long)en;
    int zero = (flags & F_ZERO) && !(flags & F_MINUS);
    if (!zero && !(flags & F_MINUS))
        pad(s, ' ', width - total);
    emit(s, sign, slen);
    if (zero)
        pad(s, '0', width - total);
    if (use_e) {
        emit_digits(s, &d, 0, 1);
        if (point)
            emit(s, ".", 1);
        emit_digits(s, &d, 1, flen);
    } else {
        /* digit positions are relative to d.dp: the integer part starts at dp - ilen */
        int start = d.n ? d.dp - (int)ilen : -(int)ilen;
        emit_digits(s, &d, start, ilen);
        if (point)
            emit(s, ".", 1);
        emit_digits(s, &d, start + (int)ilen, flen);
    }
    emit(s, expo, en);
    if (flags & F_MINUS)
        pad(s, ' ', width - total);
}

/* A double argument's bits. This file is built without FP registers (an integer program's
 * printf must not bring in garm's FP/SIMD units), so on AArch64 the AAPCS64 va_list is read by
 * hand: the saved v registers (16-byte slots) while __vr_offs < 0, then the stack. The entry
 * points (printf_entry.S) save q0-q7 only for formats with a float conversion. */
struct aapcs64_va {
    char *stack, *gr_top, *vr_top;
    int gr_offs, vr_offs;
};

static uint64_t arg_f64_bits(va_list *ap)
{
    uint64_t b;
#ifdef GARM_HOST
    double d = va_arg(*ap, double);
    memcpy(&b, &d, sizeof b);
#else
    struct aapcs64_va v;
    memcpy(&v, ap, sizeof v);
    if (v.vr_offs < 0 && v.vr_offs + 16 <= 0) {
        memcpy(&b, v.vr_top + v.vr_offs, sizeof b);
        v.vr_offs += 16;
    } else {
        v.vr_offs = v.vr_offs < 0 ? v.vr_offs + 16 : v.vr_offs;
        memcpy(&b, v.stack, sizeof b);
        v.stack += 8;
    }
    memcpy(ap, &v, sizeof v);
#endif
    return b;
}

/* Steps over a long double argument (not formatted: binary128 on AArch64). */
static void skip_f128(va_list *ap)
{
#ifdef GARM_HOST
    (void)va_arg(*ap, long double);
#else
    struct aapcs64_va v;
    memcpy(&v, ap, sizeof v);
    if (v.vr_offs < 0 && v.vr_offs + 16 <= 0) {
        v.vr_offs += 16;
    } else {
        v.vr_offs = v.vr_offs < 0 ? v.vr_offs + 16 : v.vr_offs;
        v.stack = (char *)(((uintptr_t)v.stack + 15) & ~(uintptr_t)15) + 16;
    }
    memcpy(ap, &v, sizeof v);
#endif
}

/* Whether `c` may stand between a conversion's '%' and its letter (flags, width, precision,
 * length). A switch, not strchr over the set: every printf call runs this over its whole
 * format, and strchr's loop per character made it a third of a short printf's instructions. */
static int fmt_between(char c)
{
    switch (c) {
    case '-': case '+': case ' ': case '#': case '\'': case '*': case '.':
    case 'h': case 'l': case 'L': case 'q': case 'j': case 'z': case 't':
        return 1;
    }
    return c >= '0' && c <= '9';
}

/* Whether a format consumes a floating-point argument (the entry points save q0-q7 then). */
int __garm_fmt_has_float(const char *fmt)
{
    while (*fmt) {
        if (*fmt++ != '%')
            continue;
        while (fmt_between(*fmt))
            fmt++;
        switch (*fmt) {
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
            return 1;
        case '\0':
            return 0;
        }
        fmt++;
    }
    return 0;
}

static int format(struct sink *s, const char *fmt, va_list args)
{
    /* A local copy, so &ap is a va_list * on every ABI (x86-64's va_list parameter is a
     * pointer). */
    va_list ap;
    va_copy(ap, args);
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
            else if (*fmt == '\'') continue; /* grouping: none in the C locale */
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
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
            if (len == L_LL) {
                /* long double is binary128 on AArch64 (80-bit on x86): not formatted; the
                 * argument is consumed so the ones after it stay in place. */
                skip_f128(&ap);
                emit(s, spec, (size_t)(fmt - spec));
            } else {
                format_float(s, arg_f64_bits(&ap), conv, flags, width, prec);
            }
            break;
        case '%':
            emit(s, "%", 1);
            break;
        default:
            /* Unknown conversion: glibc prints the whole spec as written. */
            emit(s, spec, (size_t)(fmt - spec));
            break;
        }
    }
    va_end(ap);
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

int vdprintf(int fd, const char *fmt, va_list ap)
{
    /* Formatted in 256-byte pieces through a private stream, one write() per piece. */
    unsigned char tmp[256];
    struct __garm_file f = {.fd = fd, .mode = GARM_FULLBUF, .buf = tmp, .cap = sizeof tmp,
                            .flags = GARM_WR};
    struct sink s = {.f = &f};
    format(&s, fmt, ap);
    if (fflush(&f))
        s.err = 1;
    return s.err ? -1 : (int)s.n;
}

/* The variadic entry points: on AArch64 in printf_entry.S (they save q0-q7 only for formats
 * with a float conversion); the host build (the JIT oracle) and garm's own C compiler (no FP
 * registers to save: its va_start leaves __vr_offs 0) have them in C. */
#if defined(GARM_HOST) || defined(__garmcc__)
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

int dprintf(int fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vdprintf(fd, fmt, ap);
    va_end(ap);
    return r;
}
#endif
