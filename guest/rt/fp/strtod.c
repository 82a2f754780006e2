/* fp/strtod.c: string -> floating conversion (strtod, strtof, atof), correctly rounded in the current
 * rounding mode, with glibc's syntax, endptr and errno behaviour.
 *
 * Method: the decimal significand's first MAXDIG significant digits become a big integer D (the
 * rest only set a "nonzero digits dropped" flag), so the value is D * 10^E. For E >= 0 the exact
 * product is formed; for E < 0 a 64-bit quotient of D * 2^s / 10^-E is found by long division and
 * the remainder becomes a sticky bit. round_bits() then rounds 64 bits + sticky once, straight to
 * the target format (binary64 or binary32), subnormals included. Every midpoint between adjacent
 * doubles (or floats) has fewer than MAXDIG significant decimal digits, so truncating the input to
 * MAXDIG digits plus the sticky flag never changes a rounding decision. Hex floats go through the
 * same rounding. Only integer arithmetic is used on the slow path, and exact IEEE basic operations
 * on the fast path, so the AArch64 and the x86-64 host builds give the same bits.
 *
 * errno follows glibc on x86-64: ERANGE on overflow, and on underflow when the result is tiny
 * (tininess detected after rounding) and inexact, which includes rounding a nonzero input to 0.
 * strtold is not provided (AArch64 long double is binary128). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

/* A binary format: precision p (with the implicit bit), exponents of the smallest normal and of
 * the largest finite number's leading bit, total width. */
struct fpfmt {
    int p, emin, emax, width;
};
static const struct fpfmt F64 = {53, -1022, 1023, 64};
static const struct fpfmt F32 = {24, -126, 127, 32};

enum { RM_NEAREST, RM_ZERO, RM_UP, RM_DOWN };

static int rounding_mode(void)
{
    static const int from_rt[4] = {RM_NEAREST, RM_UP, RM_DOWN, RM_ZERO};
    return from_rt[__garm_round_mode() & 3];
}

static uint64_t sign_bit(const struct fpfmt *f) { return (uint64_t)1 << (f->width - 1); }

static uint64_t inf_bits(int neg, const struct fpfmt *f)
{
    uint64_t b = (uint64_t)((1 << (f->width - f->p)) - 1) << (f->p - 1);
    return neg ? b | sign_bit(f) : b;
}

/* Rounds m * 2^e2 (m != 0), plus "a little more" when sticky, to format f in the current
 * rounding mode; returns the bit pattern, setting errno to ERANGE on overflow and on a tiny
 * inexact result. */
static uint64_t round_bits(int neg, uint64_t m, long e2, int sticky, const struct fpfmt *f)
{
    int mode = rounding_mode();
    int lz = __builtin_clzll(m);
    m <<= lz;
    e2 -= lz;
    long lead = e2 + 63; /* exponent of m's leading bit */
    int p = f->p;
    if (lead > f->emax + 1)
        lead = f->emax + 1; /* overflows whatever the rounding: keep the arithmetic small */

    /* Decide the increment for dropping `drop` low bits of m. */
    long drop = 64 - p;
    if (lead < f->emin)
        drop += f->emin - lead;
    uint64_t keep, rem, half;
    int above, exact_half;
    if (drop >= 64) {
        keep = 0;
        rem = m;
        half = drop == 64 ? (uint64_t)1 << 63 : 0;
        above = drop == 64 && (rem > half || (rem == half && sticky));
        exact_half = drop == 64 && rem == half && !sticky;
    } else {
        keep = m >> drop;
        rem = m & (((uint64_t)1 << drop) - 1);
        half = (uint64_t)1 << (drop - 1);
        above = rem > half || (rem == half && sticky);
        exact_half = rem == half && !sticky;
    }
    int inexact = rem != 0 || sticky;
    int inc;
    switch (mode) {
    case RM_NEAREST: inc = above || (exact_half && (keep & 1)); break;
    case RM_UP: inc = inexact && !neg; break;
    case RM_DOWN: inc = inexact && neg; break;
    default: inc = 0; break;
    }

    /* Tininess after rounding (as glibc on x86-64): would the result, rounded to p bits with an
     * unbounded exponent, be below the smallest normal? */
    int tiny = 0;
    if (lead < f->emin - 1) {
        tiny = 1;
    } else if (lead == f->emin - 1) {
        int d0 = 64 - p;
        uint64_t k0 = m >> d0, r0 = m & (((uint64_t)1 << d0) - 1), h0 = (uint64_t)1 << (d0 - 1);
        int inc0, inexact0 = r0 != 0 || sticky;
        switch (mode) {
        case RM_NEAREST: inc0 = r0 > h0 || (r0 == h0 && (sticky || (k0 & 1))); break;
        case RM_UP: inc0 = inexact0 && !neg; break;
        case RM_DOWN: inc0 = inexact0 && neg; break;
        default: inc0 = 0; break;
        }
        tiny = !(inc0 && k0 == ((uint64_t)1 << p) - 1);
    }

    keep += (uint64_t)inc;
    uint64_t bits = 0;
    int overflow = 0;
    if (lead >= f->emin) {
        long biased = lead - f->emin + 1;
        if (biased > f->emax - f->emin + 1)
            overflow = 1;
        else
            bits = ((uint64_t)(biased - 1) << (p - 1)) + keep;
        if (!overflow && bits >= inf_bits(0, f))
            overflow = 1;
    } else {
        bits = keep; /* subnormal; a carry into 2^(p-1) makes the smallest normal */
    }
    if (overflow) {
        errno = ERANGE;
        int to_inf = mode == RM_NEAREST || (mode == RM_UP && !neg) || (mode == RM_DOWN && neg);
        bits = to_inf ? inf_bits(0, f) : inf_bits(0, f) - 1;
    } else if (tiny && inexact) {
        errno = ERANGE;
    }
    return neg ? bits | sign_bit(f) : bits;
}

/* ---- big unsigned integers, 32-bit limbs, least significant first ---- */

#define LIMBS 160 /* 5120 bits: enough for 10^1140 * 2^64 */
struct big {
    int n;
    uint32_t w[LIMBS];
};

static void big_mul_add(struct big *a, uint32_t mul, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * mul + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry)
        a->w[a->n++] = (uint32_t)carry;
}

static int big_bitlen(const struct big *a)
{
    if (a->n == 0)
        return 0;
    return 32 * a->n - __builtin_clz(a->w[a->n - 1]);
}

static void big_shl(struct big *a, int s)
{
    if (a->n == 0 || s == 0)
        return;
    int words = s / 32, bits = s % 32;
    int n = a->n + words + 1;
    for (int i = n - 1; i >= words; i--) {
        int j = i - words;
        uint32_t hi = j < a->n ? a->w[j] : 0;
        uint32_t lo = j >= 1 && j - 1 < a->n ? a->w[j - 1] : 0;
        a->w[i] = bits ? (hi << bits) | (lo >> (32 - bits)) : hi;
    }
    for (int i = 0; i < words; i++)
        a->w[i] = 0;
    a->n = n;
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

static void big_shr1(struct big *a)
{
    for (int i = 0; i < a->n; i++)
        a->w[i] = (a->w[i] >> 1) | (i + 1 < a->n ? a->w[i + 1] << 31 : 0);
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

static int big_cmp(const struct big *a, const struct big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

static void big_sub(struct big *a, const struct big *b) /* a -= b; a >= b */
{
    uint64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
        a->w[i] = (uint32_t)t;
        borrow = (t >> 32) & 1;
    }
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

static void big_pow10(struct big *a, long e) /* a *= 10^e */
{
    for (; e >= 9; e -= 9)
        big_mul_add(a, 1000000000u, 0);
    static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (e > 0)
        big_mul_add(a, p10[e], 0);
}

/* ---- decimal ---- */

#define MAXDIG 800
struct decimal {
    unsigned char d[MAXDIG]; /* significant digits, d[0] != 0 */
    int n;
    long dexp;  /* value = 0.d[0]d[1]... * 10^dexp */
    int sticky; /* nonzero digits were dropped after d[n-1] */
};

static const double pow10_d[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const float pow10_f[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                  1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

static uint64_t decimal_bits(int neg, struct decimal *x, const struct fpfmt *f)
{
    while (x->n > 0 && x->d[x->n - 1] == 0)
        x->n--;
    if (x->n == 0) /* only when digits were dropped: cannot happen with d[0] != 0 */
        return neg ? sign_bit(f) : 0;
    if (x->dexp > 330) /* >= 10^330: overflows */
        return round_bits(neg, 1, 5000, 0, f);
    if (x->dexp < -330) /* < 10^-330: below half the smallest subnormal */
        return round_bits(neg, 1, -5000, 1, f);
    long e = x->dexp - x->n;

    /* Fast path: the significand and the power of ten are exact, so one IEEE operation
     * rounds once, in the current mode. */
    if (!x->sticky && x->n <= 15 && f->p == 53 && e >= -22 && e <= 22) {
        int64_t v = 0;
        for (int i = 0; i < x->n; i++)
            v = v * 10 + x->d[i];
        volatile double dv = (double)(neg ? -v : v);
        double r = e >= 0 ? dv * pow10_d[e] : dv / pow10_d[-e];
        uint64_t b;
        memcpy(&b, &r, 8);
        return b;
    }
    if (!x->sticky && x->n <= 7 && f->p == 24 && e >= -10 && e <= 10) {
        int32_t v = 0;
        for (int i = 0; i < x->n; i++)
            v = v * 10 + x->d[i];
        volatile float fv = (float)(neg ? -v : v);
        float r = e >= 0 ? fv * pow10_f[e] : fv / pow10_f[-e];
        uint32_t b;
        memcpy(&b, &r, 4);
        return b;
    }

    static const uint32_t p10[10] = {1,      10,      100,      1000,      10000,
                                     100000, 1000000, 10000000, 100000000, 1000000000};
    struct big a;
    a.n = 0;
    for (int i = 0; i < x->n;) {
        int k = x->n - i < 9 ? x->n - i : 9;
        uint32_t chunk = 0;
        for (int j = 0; j < k; j++)
            chunk = chunk * 10 + x->d[i + j];
        big_mul_add(&a, p10[k], chunk);
        i += k;
    }
    uint64_t m;
    long e2;
    int sticky = x->sticky;
    if (e >= 0) {
        big_pow10(&a, e);
        int len = big_bitlen(&a);
        if (len <= 64) {
            m = a.w[0] | (a.n > 1 ? (uint64_t)a.w[1] << 32 : 0);
            e2 = 0;
        } else {
            /* Top 64 bits, the rest into sticky. */
            int sh = len - 64, wi = sh / 32, bi = sh % 32;
            uint64_t w0 = a.w[wi], w1 = wi + 1 < a.n ? a.w[wi + 1] : 0,
                     w2 = wi + 2 < a.n ? a.w[wi + 2] : 0;
            uint64_t lo = w0 | (w1 << 32);
            m = bi ? (lo >> bi) | (w2 << (64 - bi)) : lo;
            if (w0 & ((1u << bi) - 1))
                sticky = 1;
            for (int i = 0; i < wi; i++)
                if (a.w[i])
                    sticky = 1;
            e2 = sh;
        }
    } else {
        struct big b, c;
        b.n = 1;
        b.w[0] = 1;
        big_pow10(&b, -e);
        int s = big_bitlen(&b) - big_bitlen(&a) + 63; /* quotient in [2^62, 2^64) */
        if (s >= 0)
            big_shl(&a, s);
        else
            big_shl(&b, -s);
        c = b;
        big_shl(&c, 63);
        m = 0;
        for (int i = 63; i >= 0; i--) {
            if (big_cmp(&a, &c) >= 0) {
                big_sub(&a, &c);
                m |= (uint64_t)1 << i;
            }
            big_shr1(&c);
        }
        if (a.n)
            sticky = 1;
        e2 = -s;
    }
    return round_bits(neg, m, e2, sticky, f);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 32;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int match_word(const char *p, const char *w) /* case-insensitive prefix match */
{
    for (; *w; p++, w++)
        if ((*p | 32) != *w)
            return 0;
    return 1;
}

/* Parses an exponent's optional sign and digits at p; returns the end, or NULL when there are
 * no digits. The value saturates well past any meaningful range. */
static const char *parse_exp(const char *p, long *out)
{
    int eneg = 0;
    if (*p == '+' || *p == '-')
        eneg = *p++ == '-';
    if (!isdigit((unsigned char)*p))
        return NULL;
    long v = 0;
    for (; isdigit((unsigned char)*p); p++)
        if (v < 100000000)
            v = v * 10 + (*p - '0');
    *out = eneg ? -v : v;
    return p;
}

static uint64_t parse(const char *s, char **end, const struct fpfmt *f)
{
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';

    if (match_word(p, "inf")) {
        p += match_word(p, "infinity") ? 8 : 3;
        if (end)
            *end = (char *)p;
        return inf_bits(neg, f);
    }
    if (match_word(p, "nan")) {
        p += 3;
        uint64_t payload = 0;
        if (*p == '(') {
            const char *q = p + 1;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            if (*q == ')') {
                /* glibc: a sequence that is wholly an integer (base 0) is the payload. */
                char *pe;
                unsigned long long v = strtoull(p + 1, &pe, 0);
                if (pe == q)
                    payload = v & (((uint64_t)1 << (f->p - 2)) - 1);
                p = q + 1;
            }
        }
        if (end)
            *end = (char *)p;
        uint64_t b = inf_bits(neg, f) | ((uint64_t)1 << (f->p - 2)) | payload;
        return b;
    }

    if (p[0] == '0' && (p[1] | 32) == 'x') {
        const char *q = p + 2;
        uint64_t m = 0;
        int nd = 0, any = 0, sticky = 0, dot = 0;
        long e2 = 0;
        for (;; q++) {
            int v = hexval(*q);
            if (v < 0) {
                if (*q == '.' && !dot) {
                    dot = 1;
                    continue;
                }
                break;
            }
            any = 1;
            if (m == 0 && v == 0) {
                if (dot && e2 > -1000000000)
                    e2 -= 4;
            } else if (nd < 16) {
                m = m * 16 + (uint64_t)v;
                nd++;
                if (dot)
                    e2 -= 4;
            } else {
                sticky |= v != 0;
                if (!dot && e2 < 1000000000)
                    e2 += 4;
            }
        }
        if (!any) { /* "0x" without digits: the number is the "0" */
            if (end)
                *end = (char *)p + 1;
            return neg ? sign_bit(f) : 0;
        }
        if ((*q | 32) == 'p') {
            long x;
            const char *r = parse_exp(q + 1, &x);
            if (r) {
                q = r;
                e2 += x;
            }
        }
        if (end)
            *end = (char *)q;
        if (m == 0)
            return neg ? sign_bit(f) : 0;
        return round_bits(neg, m, e2, sticky, f);
    }

    struct decimal x;
    x.n = 0;
    x.dexp = 0;
    x.sticky = 0;
    int any = 0, dot = 0;
    const char *q = p;
    for (;; q++) {
        if (*q == '.' && !dot) {
            dot = 1;
            continue;
        }
        if (!isdigit((unsigned char)*q))
            break;
        int v = *q - '0';
        any = 1;
        if (x.n == 0 && v == 0) {
            if (dot)
                x.dexp--;
            continue;
        }
        if (x.n < MAXDIG)
            x.d[x.n++] = (unsigned char)v;
        else if (v)
            x.sticky = 1;
        if (!dot)
            x.dexp++;
    }
    if (!any) {
        if (end)
            *end = (char *)s;
        return 0;
    }
    if ((*q | 32) == 'e') {
        long ex;
        const char *r = parse_exp(q + 1, &ex);
        if (r) {
            q = r;
            x.dexp += ex;
        }
    }
    if (end)
        *end = (char *)q;
    if (x.n == 0)
        return neg ? sign_bit(f) : 0;
    return decimal_bits(neg, &x, f);
}

/* For scanf (built without FP registers): the bit pattern of strtod's (is_float == 0) or
 * strtof's result. */
uint64_t __garm_strtofp_bits(const char *s, char **end, int is_float)
{
    return parse(s, end, is_float ? &F32 : &F64);
}

double strtod(const char *restrict s, char **restrict end)
{
    uint64_t b = parse(s, end, &F64);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

float strtof(const char *restrict s, char **restrict end)
{
    uint32_t b = (uint32_t)parse(s, end, &F32);
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

double atof(const char *s) { return strtod(s, NULL); }
