/* math.c: <math.h> for the garm guest runtime.
 *
 * Bit-identical on AArch64 (guest) and x86_64 (GARM_HOST, the native JIT oracle): only IEEE
 * double/float basic operations (+ - * /, sqrt, conversions), exact integer code, and tables of
 * mathematical constants. No x87, no long double, no FMA (compiled -ffp-contract=off). Rounding
 * to integers is done with integer code or the 2^52 trick, never __builtin_floor and friends (on
 * x86_64 without SSE4.1 those become calls back into this file).
 *
 * Transcendental functions carry an argument reduction plus a Taylor series evaluated partly in
 * double-double arithmetic (Dekker/Veltkamp products, Knuth two-sum), then round once, so they are
 * within about 0.5-0.6 ulp of the exact result in round-to-nearest. */
#include <errno.h>
#include <fenv.h>
#include <math.h>
#include <stdint.h>

typedef unsigned __int128 u128;

static inline uint64_t asu(double x) { uint64_t u; __builtin_memcpy(&u, &x, 8); return u; }
static inline double asd(uint64_t u) { double x; __builtin_memcpy(&x, &u, 8); return x; }
static inline uint32_t asuf(float x) { uint32_t u; __builtin_memcpy(&u, &x, 4); return u; }
static inline float asf(uint32_t u) { float x; __builtin_memcpy(&x, &u, 4); return x; }

/* The classification garm's own C compiler's <math.h> calls (clang's builtins need none). */
int __garm_fpclassify(double x)
{
    uint64_t u = asu(x), e = (u >> 52) & 0x7ff, m = u & 0xfffffffffffffULL;
    if (e == 0x7ff)
        return m ? FP_NAN : FP_INFINITE;
    if (e == 0)
        return m ? FP_SUBNORMAL : FP_ZERO;
    return FP_NORMAL;
}

int __garm_fpclassifyf(float x)
{
    uint32_t u = asuf(x), e = (u >> 23) & 0xff, m = u & 0x7fffff;
    if (e == 0xff)
        return m ? FP_NAN : FP_INFINITE;
    if (e == 0)
        return m ? FP_SUBNORMAL : FP_ZERO;
    return FP_NORMAL;
}

int __garm_signbit(double x) { return (int)(asu(x) >> 63); }
int __garm_signbitf(float x) { return (int)(asuf(x) >> 31); }

#define SIGN_BIT  0x8000000000000000ULL
#define MANT_MASK 0x000fffffffffffffULL
#define IMPL_BIT  0x0010000000000000ULL

/* 2^n for -1022 <= n <= 1023, exact. */
static inline double pow2i(int n) { return asd((uint64_t)(0x3ff + n) << 52); }

static inline double fabs_(double x) { return asd(asu(x) & ~SIGN_BIT); }

/* Nearest integer of |v| < 2^62, ties away; independent of the rounding mode. */
static inline long nearest_l(double v) { return (long)(v < 0 ? v - 0.5 : v + 0.5); }

static void set_errno(int e) { errno = e; }

/* NaN results are made the same on both ISAs: a NaN operand comes back quieted (x + x, one
 * operand, propagates its payload identically), and a NaN made from non-NaN operands is the
 * AArch64 default NaN (+qNaN; x86 would make -qNaN), with the invalid flag raised. */
static double invalid(void)
{
    volatile double z = 0.0;
    volatile double r = z / z;
    (void)r;
    return __builtin_nan("");
}
static inline double nan2(double x, double y) { return (x != x) ? x + x : y + y; }

/* ---- double-double helpers (valid in round-to-nearest) ---- */
typedef struct { double h, l; } dd;

static inline dd two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    dd r = { s, (a - (s - bb)) + (b - bb) };
    return r;
}
static inline dd fast_two_sum(double a, double b) /* |a| >= |b| or a == 0 */
{
    double s = a + b;
    dd r = { s, b - (s - a) };
    return r;
}
static inline double split_hi(double a)
{
    double t = 134217729.0 * a; /* 2^27 + 1 */
    return t - (t - a);
}
static inline dd two_prod(double a, double b)
{
    double p = a * b;
    double ah = split_hi(a), al = a - ah, bh = split_hi(b), bl = b - bh;
    dd r = { p, ((ah * bh - p) + ah * bl + al * bh) + al * bl };
    return r;
}
static inline dd dd_add(dd a, dd b)
{
    dd s = two_sum(a.h, b.h);
    return fast_two_sum(s.h, s.l + a.l + b.l);
}
static inline dd dd_div(dd a, dd b)
{
    double q = a.h / b.h;
    dd p = two_prod(q, b.h);
    double r = (((a.h - p.h) - p.l) + a.l - q * b.l) / b.h;
    return fast_two_sum(q, r);
}
static inline dd dd_sqrt(dd a) /* a.h > 0 */
{
    double s = __builtin_sqrt(a.h);
    dd p = two_prod(s, s);
    return fast_two_sum(s, (((a.h - p.h) - p.l) + a.l) / (2 * s));
}

/* ---- constants ---- */
#define PIO2_H 0x1.921fb54442d18p+0
#define PIO2_L 0x1.1a62633145c07p-54
#define PI_H 0x1.921fb54442d18p+1
#define PI_L 0x1.1a62633145c07p-53
#define PIO4_H 0x1.921fb54442d18p-1
#define PI3O4_H 0x1.2d97c7f3321d2p+1
#define INVPIO2 0x1.45f306dc9c883p-1
#define LN2_H 0x1.62e42fefa39efp-1
#define LN2_L 0x1.abc9e3b39803fp-56
#define LN2_HI 0x1.62e42fefa3000p-1 /* 41 bits: k*LN2_HI exact for |k| < 2^12 */
#define LN2_LO 0x1.3de6af278ece6p-42
#define INVLN2 0x1.71547652b82fep+0
#define INVLN2_H 0x1.71547652b82fep+0
#define INVLN2_L 0x1.777d0ffda0d24p-56
#define INVLN10_H 0x1.bcb7b1526e50ep-2
#define INVLN10_L 0x1.95355baaafad3p-57
#define LOG10_2_H 0x1.34413509f79ffp-2
#define LOG10_2_L -0x1.9dc1da994fd21p-59
#define C6_H 0x1.5555555555555p-3 /* 1/6 */
#define C6_L 0x1.5555555555555p-57
#define C23_H 0x1.5555555555555p-1 /* 2/3 */
#define C23_L 0x1.5555555555555p-55
#define PIO2_1 0x1.921fb54400000p+0 /* pi/2 in 33-bit pieces */
#define PIO2_2 0x1.0b4611a600000p-34
#define PIO2_3 0x1.3198a2e000000p-69
#define PIO2_4 0x1.b839a252049c1p-104

/* ================= exact functions ================= */

double fabs(double x) { return fabs_(x); }
float fabsf(float x) { return asf(asuf(x) & 0x7fffffffu); }
double copysign(double x, double y) { return asd((asu(x) & ~SIGN_BIT) | (asu(y) & SIGN_BIT)); }
float copysignf(float x, float y) { return asf((asuf(x) & 0x7fffffffu) | (asuf(y) & 0x80000000u)); }

double trunc(double x)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff) - 0x3ff;
    if (e >= 52)
        return e == 0x400 ? x + x : x;
    if (e < 0)
        return asd(u & SIGN_BIT);
    uint64_t m = MANT_MASK >> e;
    return asd(u & ~m);
}

/* floor (up = 0) and ceil (up = 1): truncate, then step away from zero when the value lies on
 * the side being rounded toward and a fraction was dropped. */
static double floor_ceil(double x, int up)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff) - 0x3ff;
    if (e >= 52)
        return e == 0x400 ? x + x : x;
    if (e < 0) {
        if ((u << 1) == 0)
            return x;
        if (u >> 63)
            return up ? -0.0 : -1.0;
        return up ? 1.0 : 0.0;
    }
    uint64_t m = MANT_MASK >> e;
    if ((u & m) == 0)
        return x;
    if ((u >> 63) != (uint64_t)up)
        u += m;
    return asd(u & ~m);
}

double floor(double x) { return floor_ceil(x, 0); }
double ceil(double x) { return floor_ceil(x, 1); }

double round(double x)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff) - 0x3ff;
    if (e >= 52)
        return e == 0x400 ? x + x : x;
    if (e < -1)
        return asd(u & SIGN_BIT);
    if (e == -1)
        return asd((u & SIGN_BIT) | 0x3ff0000000000000ULL);
    uint64_t m = MANT_MASK >> e;
    if ((u & m) == 0)
        return x;
    u += (m + 1) >> 1;
    return asd(u & ~m);
}

float floorf(float x) { return (float)floor(x); }
float ceilf(float x) { return (float)ceil(x); }
float truncf(float x) { return (float)trunc(x); }
float roundf(float x) { return (float)round(x); }

/* Rounds to an integer in the current rounding mode (raises inexact). */
double rint(double x)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff);
    if (e >= 0x433)
        return e == 0x7ff ? x + x : x;
    volatile double t = (u >> 63) ? -0x1p52 : 0x1p52;
    double y = (x + t) - t;
    return asd((asu(y) & ~SIGN_BIT) | (u & SIGN_BIT));
}
float rintf(float x) { return (float)rint(x); }

double nearbyint(double x)
{
    int saved = fetestexcept(FE_INEXACT);
    volatile double r = rint(x);
    if (!saved)
        feclearexcept(FE_INEXACT);
    return r;
}
float nearbyintf(float x) { return (float)nearbyint(x); }

/* Double holding an integer to long, AArch64 (fcvtzs) semantics: NaN -> 0, saturating. */
static long to_long(double r)
{
    if (r != r)
        return 0;
    if (r >= 0x1p63)
        return 0x7fffffffffffffffL;
    if (r < -0x1p63)
        return (long)(-0x7fffffffffffffffL - 1);
    return (long)r;
}
long lrint(double x) { return to_long(rint(x)); }
long long llrint(double x) { return to_long(rint(x)); }
long lrintf(float x) { return to_long(rint(x)); }
long long llrintf(float x) { return to_long(rint(x)); }
long lround(double x) { return to_long(round(x)); }
long long llround(double x) { return to_long(round(x)); }
long lroundf(float x) { return to_long(round(x)); }
long long llroundf(float x) { return to_long(round(x)); }

/* x * 2^n, correctly rounded in the current mode (one rounding at most). */
double scalbn(double x, int n)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff)
        return x + x;
    if ((u << 1) == 0 || n == 0)
        return x;
    if (n > 4000)
        n = 4000;
    if (n < -4000)
        n = -4000;
    if (e == 0) { /* subnormal: normalise */
        x *= 0x1p64;
        u = asu(x);
        e = (int)((u >> 52) & 0x7ff) - 64;
    }
    int E = e - 0x3ff + n; /* exponent of the result's leading bit */
    uint64_t keep = u & (SIGN_BIT | MANT_MASK);
    if (E > 1023) { /* overflow: let the hardware round (inf or max per mode) */
        double y = asd(keep | (0x7feULL << 52));
        return y * 2.0;
    }
    if (E >= -1022)
        return asd(keep | ((uint64_t)(E + 0x3ff) << 52));
    if (E < -1080)
        E = -1080;
    double y = asd(keep | ((uint64_t)(E + 60 + 0x3ff) << 52));
    return y * 0x1p-60; /* the only rounding */
}
double scalbln(double x, long n)
{
    return scalbn(x, n > 4000 ? 4000 : n < -4000 ? -4000 : (int)n);
}
double ldexp(double x, int e) { return scalbn(x, e); }
static int clampf_n(long n) { return n > 400 ? 400 : n < -400 ? -400 : (int)n; }
float scalbnf(float x, int n) { return (float)scalbn(x, clampf_n(n)); }
float scalblnf(float x, long n) { return (float)scalbn(x, clampf_n(n)); }
float ldexpf(float x, int e) { return (float)scalbn(x, clampf_n(e)); }

double frexp(double x, int *ep)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff || (u << 1) == 0) {
        *ep = 0;
        return x + x;
    }
    int adj = 0;
    if (e == 0) {
        x *= 0x1p64;
        u = asu(x);
        e = (int)((u >> 52) & 0x7ff);
        adj = 64;
    }
    *ep = e - 0x3fe - adj;
    return asd((u & ~(0x7ffULL << 52)) | (0x3feULL << 52));
}
float frexpf(float x, int *ep) { return (float)frexp(x, ep); }

int ilogb(double x)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff) {
        feraiseexcept(FE_INVALID);
        return (u << 12) ? FP_ILOGBNAN : 0x7fffffff;
    }
    if (e == 0) {
        if ((u << 1) == 0) {
            feraiseexcept(FE_INVALID);
            return FP_ILOGB0;
        }
        x *= 0x1p64;
        return (int)((asu(x) >> 52) & 0x7ff) - 0x3ff - 64;
    }
    return e - 0x3ff;
}
int ilogbf(float x) { return ilogb(x); }

double logb(double x)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff)
        return x * x;
    if ((u << 1) == 0) {
        set_errno(ERANGE);
        return -1.0 / fabs_(x);
    }
    return (double)ilogb(x);
}
float logbf(float x) { return (float)logb(x); }

double modf(double x, double *ip)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff) {
        *ip = x;
        if (u << 12)
            return x + x;
        return asd(u & SIGN_BIT);
    }
    double i = trunc(x);
    *ip = i;
    return asd((asu(x - i) & ~SIGN_BIT) | (u & SIGN_BIT));
}
float modff(float x, float *ip)
{
    double i;
    float f = (float)modf(x, &i);
    *ip = (float)i;
    return f;
}

double nextafter(double x, double y)
{
    if (x != x || y != y)
        return nan2(x, y);
    if (x == y)
        return y;
    uint64_t u = asu(x);
    if ((u << 1) == 0)
        u = (asu(y) & SIGN_BIT) | 1;
    else if ((x < y) == !(u >> 63))
        u++;
    else
        u--;
    double r = asd(u);
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff || e == 0) {
        volatile double t = r * r + x * x; /* raise overflow / underflow + inexact */
        (void)t;
        set_errno(ERANGE);
    }
    return r;
}
float nextafterf(float x, float y)
{
    if (x != x || y != y)
        return (x != x) ? x + x : y + y;
    if (x == y)
        return y;
    uint32_t u = asuf(x);
    if ((u << 1) == 0)
        u = (asuf(y) & 0x80000000u) | 1;
    else if ((x < y) == !(u >> 31))
        u++;
    else
        u--;
    float r = asf(u);
    int e = (int)((u >> 23) & 0xff);
    if (e == 0xff || e == 0) {
        volatile float t = r * r + x * x;
        (void)t;
        set_errno(ERANGE);
    }
    return r;
}

double fmin(double x, double y)
{
    if (x != x)
        return y;
    if (y != y)
        return x;
    if (x == y)
        return (asu(x) >> 63) ? x : y; /* fmin(+0, -0) = -0 */
    return x < y ? x : y;
}
double fmax(double x, double y)
{
    if (x != x)
        return y;
    if (y != y)
        return x;
    if (x == y)
        return (asu(x) >> 63) ? y : x; /* fmax(+0, -0) = +0 */
    return x > y ? x : y;
}
float fminf(float x, float y) { return (float)fmin(x, y); }
float fmaxf(float x, float y) { return (float)fmax(x, y); }
double fdim(double x, double y)
{
    if (x != x || y != y)
        return nan2(x, y);
    return x > y ? x - y : 0.0;
}
float fdimf(float x, float y)
{
    if (x != x || y != y)
        return (x != x) ? x + x : y + y;
    return x > y ? x - y : 0.0f;
}

double nan(const char *tag) { (void)tag; return __builtin_nan(""); }
float nanf(const char *tag) { (void)tag; return __builtin_nanf(""); }

/* fmod: exact, by integer long division of the significands. */
double fmod(double x, double y)
{
    uint64_t ux = asu(x), uy = asu(y);
    int ex = (int)((ux >> 52) & 0x7ff), ey = (int)((uy >> 52) & 0x7ff);
    if (ex == 0x7ff || (uy << 1) == 0 || (ey == 0x7ff && (uy << 12))) {
        if (ex == 0x7ff && !(ux << 12) && y == y)
            set_errno(EDOM);
        if ((uy << 1) == 0 && x == x)
            set_errno(EDOM);
        if (x != x || y != y)
            return nan2(x, y);
        return invalid();
    }
    if (ey == 0x7ff) /* y infinite, x finite */
        return x;
    if ((ux << 1) <= (uy << 1)) {
        if ((ux << 1) == (uy << 1))
            return asd(ux & SIGN_BIT);
        return x;
    }
    uint64_t mx, my;
    if (ex == 0) { /* subnormal: ex becomes <= 0, mantissa with bit 52 set */
        int s = __builtin_clzll(ux << 12) + 1;
        mx = (ux & MANT_MASK) << s;
        ex = 1 - s;
    } else
        mx = (ux & MANT_MASK) | IMPL_BIT;
    if (ey == 0) {
        int s = __builtin_clzll(uy << 12) + 1;
        my = (uy & MANT_MASK) << s;
        ey = 1 - s;
    } else
        my = (uy & MANT_MASK) | IMPL_BIT;
    /* |x| > |y|: ex >= ey */
    int d = ex - ey;
    uint64_t r = mx % my;
    while (d > 0) {
        int s = d > 11 ? 11 : d;
        r = (r << s) % my;
        d -= s;
    }
    if (r == 0)
        return asd(ux & SIGN_BIT);
    /* result = r * 2^(ey - 1075): exact */
    double v = (double)(int64_t)r;
    v = scalbn(v, ey - 1075);
    return asd(asu(v) | (ux & SIGN_BIT));
}
float fmodf(float x, float y) { return (float)fmod(x, y); }

double remquo(double x, double y, int *quo)
{
    *quo = 0;
    if (x != x || y != y)
        return nan2(x, y);
    if (isinf(x) || y == 0) {
        set_errno(EDOM);
        return invalid();
    }
    int sx = (int)(asu(x) >> 63), sq = sx ^ (int)(asu(y) >> 63);
    double ax = fabs_(x), ay = fabs_(y);
    unsigned q = 0;
    if (ay < 0x1p1021 && ax >= 8 * ay)
        ax = fmod(ax, 8 * ay);
    if (ay < 0x1p1022 && ax >= 4 * ay) { ax -= 4 * ay; q += 4; }
    if (ay < 0x1p1023 && ax >= 2 * ay) { ax -= 2 * ay; q += 2; }
    if (ax >= ay) { ax -= ay; q += 1; }
    /* 0 <= ax < ay */
    if (ay < 0x1p-1021) {
        if (ax + ax > ay || (ax + ax == ay && (q & 1))) { ax -= ay; q++; }
    } else {
        double h = 0.5 * ay;
        if (ax > h || (ax == h && (q & 1))) { ax -= ay; q++; }
    }
    q &= 7;
    *quo = sq ? -(int)q : (int)q;
    if (ax == 0)
        return sx ? -0.0 : 0.0;
    return sx ? -ax : ax;
}
double remainder(double x, double y)
{
    int q;
    return remquo(x, y, &q);
}
float remquof(float x, float y, int *quo) { return (float)remquo(x, y, quo); }
float remainderf(float x, float y) { return (float)remainder(x, y); }

/* ---- fma: exact integer product and sum, one rounding in the current mode ---- */

static inline int clz128(u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64);
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)v);
}

/* Rounds (-1)^sign * S * 2^e (S > 0, bit 0 may be a sticky bit well below the rounding point)
 * to prec bits with minimum normal exponent emin, in the current rounding mode. The result is
 * exactly representable in that format, returned as a double (overflow included: it then
 * rounds on conversion or scaling). */
static double round_exact(int sign, u128 S, int e, int prec, int emin)
{
    int mode = fegetround();
    int m = 127 - clz128(S);
    int E = m + e;
    int sh = (E >= emin) ? m - (prec - 1) : (emin - (prec - 1)) - e;
    u128 q;
    int up = 0;
    if (sh <= 0) {
        q = S << -sh;
    } else {
        u128 rem, half;
        int above, tie;
        if (sh >= 128) {
            q = 0;
            above = 0;
            tie = 0;
            rem = 1;
        } else {
            q = S >> sh;
            rem = S & (((u128)1 << sh) - 1);
            half = (u128)1 << (sh - 1);
            above = rem > half;
            tie = rem == half;
        }
        if (rem) {
            if (mode == FE_TONEAREST)
                up = above || (tie && (q & 1));
            else if (mode == FE_UPWARD)
                up = !sign;
            else if (mode == FE_DOWNWARD)
                up = sign;
        }
    }
    q += up;
    int re = e + sh;
    /* q <= 2^prec; q * 2^re is exact in double (prec <= 53) unless out of double range */
    double v = (double)(int64_t)(uint64_t)q;
    int qe = 127 - clz128(q) + re;
    if (prec == 53 && qe > 1023) {
        /* overflow: inf or max depending on the mode */
        int toinf = mode == FE_TONEAREST || (mode == FE_UPWARD && !sign) || (mode == FE_DOWNWARD && sign);
        v = toinf ? __builtin_inf() : 0x1.fffffffffffffp1023;
    } else
        v = scalbn(v, re);
    return sign ? -v : v;
}

/* Exact x*y + z, rounded once; prec/emin select double or float. */
static double fma_core(double x, double y, double z, int prec, int emin)
{
    uint64_t ux = asu(x), uy = asu(y), uz = asu(z);
    int ex = (int)((ux >> 52) & 0x7ff), ey = (int)((uy >> 52) & 0x7ff), ez = (int)((uz >> 52) & 0x7ff);
    if (x != x || y != y || z != z)
        return (x != x || y != y) ? nan2(x, y) : z + z;
    if (ex == 0x7ff || ey == 0x7ff || ez == 0x7ff) {
        if ((ex != 0x7ff && ey != 0x7ff)) /* z infinite, x*y finite */
            return z;
        double r = x * y + z; /* x*y is exact (infinite or zero times infinite) */
        return r != r ? invalid() : r;
    }
    if (x == 0 || y == 0)
        return x * y + z;
    if (z == 0) /* x*y rounded once (for float, x*y is exact in double) */
        return x * y;
    uint64_t mx = (ux & MANT_MASK) | (ex ? IMPL_BIT : 0);
    uint64_t my = (uy & MANT_MASK) | (ey ? IMPL_BIT : 0);
    uint64_t mz = (uz & MANT_MASK) | (ez ? IMPL_BIT : 0);
    int epx = (ex ? ex : 1) - 1075, epy = (ey ? ey : 1) - 1075, epz = (ez ? ez : 1) - 1075;
    int sp = (int)((ux ^ uy) >> 63), sz = (int)(uz >> 63);
    u128 P = (u128)mx * my;
    int ep = epx + epy;
    int s = clz128(P) - 2; /* top bit to position 125 */
    P <<= s;
    ep -= s;
    u128 Z = (u128)mz;
    s = clz128(Z) - 2;
    Z <<= s;
    int ezz = epz - s;
    u128 A, B;
    int eA, sA, sB, d;
    if (ep > ezz || (ep == ezz && P >= Z)) {
        A = P; eA = ep; sA = sp; B = Z; sB = sz; d = ep - ezz;
    } else {
        A = Z; eA = ezz; sA = sz; B = P; sB = sp; d = ezz - ep;
    }
    if (d >= 127)
        B = 1;
    else if (d > 0) {
        int sticky = (B & (((u128)1 << d) - 1)) != 0;
        B = (B >> d) | (u128)sticky;
    }
    u128 S;
    if (sA == sB)
        S = A + B;
    else
        S = A - B;
    if (S == 0)
        return fegetround() == FE_DOWNWARD ? -0.0 : 0.0;
    return round_exact(sA, S, eA, prec, emin);
}

double fma(double x, double y, double z) { return fma_core(x, y, z, 53, -1022); }
float fmaf(float x, float y, float z) { return (float)fma_core(x, y, z, 24, -126); }

/* ================= roots ================= */

static inline double hw_sqrt(double x)
{
    double r;
#if defined(__garmcc__) /* garm's own C compiler: the same fsqrt, as a builtin */
    r = __builtin_sqrt(x);
#elif defined(__aarch64__)
    __asm__("fsqrt %d0, %d1" : "=w"(r) : "w"(x));
#elif defined(__x86_64__)
    __asm__("sqrtsd %1, %0" : "=x"(r) : "x"(x));
#else
    r = __builtin_sqrt(x);
#endif
    return r;
}
static inline float hw_sqrtf(float x)
{
    float r;
#if defined(__garmcc__) /* garm's own C compiler: the same fsqrt, as a builtin */
    r = __builtin_sqrtf(x);
#elif defined(__aarch64__)
    __asm__("fsqrt %s0, %s1" : "=w"(r) : "w"(x));
#elif defined(__x86_64__)
    __asm__("sqrtss %1, %0" : "=x"(r) : "x"(x));
#else
    r = __builtin_sqrtf(x);
#endif
    return r;
}

double sqrt(double x)
{
    if (x < 0) {
        set_errno(EDOM);
        return invalid();
    }
    return hw_sqrt(x);
}
float sqrtf(float x)
{
    if (x < 0) {
        set_errno(EDOM);
        return (float)invalid();
    }
    return hw_sqrtf(x);
}

double cbrt(double x)
{
    uint64_t u = asu(x);
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff || (u << 1) == 0)
        return x + x;
    int adj = 0;
    if (e == 0) {
        x *= 0x1p90;
        u = asu(x);
        e = (int)((u >> 52) & 0x7ff);
        adj = 30;
    }
    int E = e - 0x3ff;
    int q = E >= 0 ? E / 3 : -((-E + 2) / 3); /* floor(E/3) */
    int r = E - 3 * q;                          /* 0, 1, 2 */
    double m = asd((u & MANT_MASK) | (0x3ffULL << 52)); /* [1, 2) */
    double a = m * (double)(1 << r);                     /* [1, 8) */
    /* initial guess: chord of cbrt on [1, 2) times 2^(r/3) (~2% error), then Newton */
    static const double base[3] = { 1.0, 1.2599210498948732, 1.5874010519681994 };
    double y = base[r] * (0.74 + 0.26 * m);
    for (int i = 0; i < 4; i++)
        y = y - (y * y * y - a) / (3.0 * y * y);
    /* final correction with an exact residual */
    dd y2 = two_prod(y, y);
    dd y3 = two_prod(y, y2.h);
    double y3l = y3.l + y * y2.l;
    double res = ((a - y3.h) - y3l);
    y = y + res / (3.0 * y * y);
    y = scalbn(y, q - adj);
    return (u >> 63) ? -y : y;
}
float cbrtf(float x) { return (float)cbrt(x); }

double hypot(double x, double y)
{
    double ax = fabs_(x), ay = fabs_(y);
    if (isinf(ax) || isinf(ay))
        return __builtin_inf();
    if (ax != ax || ay != ay)
        return nan2(x, y);
    if (ax < ay) {
        double t = ax; ax = ay; ay = t;
    }
    if (ay == 0)
        return ax;
    int ea = (int)((asu(ax) >> 52) & 0x7ff), eb = (int)((asu(ay) >> 52) & 0x7ff);
    if (ea - eb > 60)
        return ax + ay;
    /* scale so that ax is in [1, 2) (exact: both are scaled by the same power of two) */
    int k;
    if (ea == 0) {
        ax *= 0x1p600;
        ay *= 0x1p600;
        ea = (int)((asu(ax) >> 52) & 0x7ff);
        k = ea - 0x3ff - 600;
    } else
        k = ea - 0x3ff;
    ax = scalbn(ax, -(ea - 0x3ff));
    ay = scalbn(ay, -(ea - 0x3ff));
    dd a2 = two_prod(ax, ax), b2 = two_prod(ay, ay);
    dd s = dd_add(a2, b2);
    dd r = dd_sqrt(s);
    double v = r.h + r.l;
    double res = scalbn(v, k);
    if (isinf(res))
        set_errno(ERANGE);
    return res;
}
float hypotf(float x, float y) { return (float)hypot(x, y); }

/* ================= exp / log core ================= */

/* exp(xh + xl) = 2^k * (h + l), |xl| << |xh| <= ~746. */
static dd exp_core(double xh, double xl, int *k)
{
    double kd = (double)nearest_l(xh * INVLN2);
    *k = (int)kd;
    double rh = xh - kd * LN2_HI; /* exact */
    double rl = xl - kd * LN2_LO;
    dd r = two_sum(rh, rl);
    double x = r.h, c = r.l; /* exp(x + c) = exp(x) (1 + c) */
    dd z = two_prod(x, x);
    double x3 = z.h * x;
    /* exp(x) = 1 + x + x^2/2 + x^3 Q(x) */
    double Q = 1.0 / 6 + x * (1.0 / 24 + x * (1.0 / 120 + x * (1.0 / 720 + x * (1.0 / 5040 +
               x * (1.0 / 40320 + x * (1.0 / 362880 + x * (1.0 / 3628800 + x * (1.0 / 39916800 +
               x * (1.0 / 479001600 + x * (1.0 / 6227020800 + x * (1.0 / 87178291200 +
               x * (1.0 / 1307674368000 + x * (1.0 / 20922789888000 + x * (1.0 / 355687428096000))))))))))))));
    dd s = two_sum(1.0, x);
    dd t = two_sum(s.h, 0.5 * z.h);
    double lo = s.l + t.l + 0.5 * z.l + x3 * Q + c * (1.0 + x);
    return fast_two_sum(t.h, lo);
}

/* 2^k * (h + l), rounded once (also in the subnormal range); h in [0.7, 1.5]. */
static double scale_round(dd v, int k)
{
    if (k > -1022 || (k == -1022 && v.h >= 1.0))
        return scalbn(v.h + v.l, k);
    if (k < -1080)
        return scalbn(v.h, -1080);
    /* subnormal result: round at the position of 2^-1074 using a big bias B = 2^(-1022-k) */
    double B = pow2i(-1022 - k);
    dd s = two_sum(B, v.h);
    double f = s.h + (s.l + v.l);
    return scalbn(f - B, k);
}

double exp(double x)
{
    if (x != x)
        return x + x;
    if (x > 709.782712893384) {
        if (!isinf(x))
            set_errno(ERANGE);
        return x * 0x1p1023;
    }
    if (x < -745.1332191019412) {
        if (!isinf(x))
            set_errno(ERANGE);
        return isinf(x) ? 0.0 : 0x1p-1074 * 0x1p-60;
    }
    if (fabs_(x) < 0x1p-54)
        return 1.0 + x;
    int k;
    dd v = exp_core(x, 0.0, &k);
    double r = scale_round(v, k);
    if (r == 0)
        set_errno(ERANGE);
    return r;
}

double exp2(double x)
{
    if (x != x)
        return x + x;
    if (x >= 1024) {
        if (!isinf(x))
            set_errno(ERANGE);
        return x * 0x1p1023;
    }
    if (x < -1080) {
        if (!isinf(x))
            set_errno(ERANGE);
        return isinf(x) ? 0.0 : 0x1p-1074 * 0x1p-60;
    }
    long n = (long)x;
    double f = x - (double)n; /* exact */
    if (f > 0.5) {
        n++;
        f -= 1.0; /* exact (Sterbenz) */
    } else if (f < -0.5) {
        n--;
        f += 1.0;
    }
    if (f == 0)
        return scalbn(1.0, (int)n);
    dd t = two_prod(f, LN2_H);
    t.l += f * LN2_L;
    int k;
    dd v = exp_core(t.h, t.l, &k);
    return scale_round(v, k + (int)n);
}

/* expm1 as a double-double with good relative accuracy, -40 < x < 709.8. */
static dd expm1_core(double x)
{
    if (fabs_(x) < 0.3465) {
        dd z = two_prod(x, x);        /* x^2 */
        dd c = two_prod(x, z.h);      /* x^3 */
        c.l += x * z.l;
        dd a = two_prod(c.h, C6_H);   /* x^3 / 6 */
        a.l += c.l * C6_H + c.h * C6_L;
        double x4 = z.h * z.h;
        double R = x4 * (1.0 / 24 + x * (1.0 / 120 + x * (1.0 / 720 + x * (1.0 / 5040 +
                   x * (1.0 / 40320 + x * (1.0 / 362880 + x * (1.0 / 3628800 + x * (1.0 / 39916800 +
                   x * (1.0 / 479001600 + x * (1.0 / 6227020800 + x * (1.0 / 87178291200 +
                   x * (1.0 / 1307674368000 + x * (1.0 / 20922789888000)))))))))))));
        dd s = two_sum(x, 0.5 * z.h);
        dd t = two_sum(s.h, a.h);
        double lo = s.l + t.l + 0.5 * z.l + a.l + R;
        return fast_two_sum(t.h, lo);
    }
    int k;
    dd v = exp_core(x, 0.0, &k);
    double sc = pow2i(k);
    double h = v.h * sc, l = v.l * sc;
    dd s = two_sum(h, -1.0);
    return fast_two_sum(s.h, s.l + l);
}

double expm1(double x)
{
    if (x != x)
        return x + x;
    if (x > 709.782712893384) {
        if (!isinf(x))
            set_errno(ERANGE);
        return x * 0x1p1023;
    }
    if (x < -40)
        return -1.0 + 0x1p-100;
    if (x > 50) { /* the -1 is below half an ulp */
        int k;
        dd v = exp_core(x, 0.0, &k);
        return scale_round(v, k);
    }
    if (fabs_(x) < 0x1p-60)
        return x;
    dd v = expm1_core(x);
    return v.h + v.l;
}

/* log(x) for finite x > 0: x = 2^e * m, returns log(m) as a double-double, m in [0.707, 1.414). */
static dd log_core(double x, int *ep)
{
    uint64_t u = asu(x);
    int e = (int)(u >> 52);
    if (e == 0) {
        x *= 0x1p64;
        u = asu(x);
        e = (int)(u >> 52) - 64;
    }
    e -= 0x3ff;
    double m = asd((u & MANT_MASK) | (0x3ffULL << 52));
    if (m > 0x1.6a09e667f3bcdp0) {
        m *= 0.5;
        e++;
    }
    *ep = e;
    double f = m - 1.0; /* exact */
    if (f == 0) {
        dd z = { 0, 0 };
        return z;
    }
    /* s = f / (2 + f) as a double-double */
    dd d = two_sum(2.0, f);
    double sh = f / d.h;
    dd p = two_prod(sh, d.h);
    double sl = (((f - p.h) - p.l) - sh * d.l) / d.h;
    /* log(m) = 2 atanh(s) = 2s + 2/3 s^3 + 2/5 s^5 + ... */
    dd z = two_prod(sh, sh);
    z.l += 2 * sh * sl;
    dd s3 = two_prod(sh, z.h);
    s3.l += sh * z.l + sl * z.h;
    dd t3 = two_prod(C23_H, s3.h);
    t3.l += C23_H * s3.l + C23_L * s3.h;
    double w = z.h;
    double tail = s3.h * w * (2.0 / 5 + w * (2.0 / 7 + w * (2.0 / 9 + w * (2.0 / 11 + w * (2.0 / 13 +
                  w * (2.0 / 15 + w * (2.0 / 17 + w * (2.0 / 19 + w * (2.0 / 21 + w * (2.0 / 23 +
                  w * (2.0 / 25 + w * (2.0 / 27))))))))))));
    dd r = fast_two_sum(2 * sh, t3.h);
    r.l += 2 * sl + t3.l + tail;
    return fast_two_sum(r.h, r.l);
}

/* Full log(x) as a double-double. */
static dd log_full(double x)
{
    int e;
    dd r = log_core(x, &e);
    if (e == 0)
        return r;
    double ed = (double)e;
    dd a = two_sum(ed * LN2_HI, r.h); /* ed * LN2_HI exact */
    a.l += r.l + ed * LN2_LO;
    return fast_two_sum(a.h, a.l);
}

/* Special cases shared by the log family; returns 1 if *res is the answer. */
static int log_special(double x, double *res)
{
    uint64_t u = asu(x);
    if (x != x) {
        *res = x + x;
        return 1;
    }
    if ((u << 1) == 0) {
        set_errno(ERANGE);
        volatile double t = -1.0 / fabs_(x); /* divide-by-zero */
        *res = t;
        return 1;
    }
    if (u >> 63) {
        set_errno(EDOM);
        *res = invalid();
        return 1;
    }
    if (isinf(x)) {
        *res = x;
        return 1;
    }
    return 0;
}

double log(double x)
{
    double r;
    if (log_special(x, &r))
        return r;
    dd v = log_full(x);
    return v.h + v.l;
}

double log2(double x)
{
    double r;
    if (log_special(x, &r))
        return r;
    int e;
    dd v = log_core(x, &e);
    dd q = two_prod(v.h, INVLN2_H);
    q.l += v.h * INVLN2_L + v.l * INVLN2_H;
    dd s = two_sum((double)e, q.h);
    return s.h + (s.l + q.l);
}

double log10(double x)
{
    double r;
    if (log_special(x, &r))
        return r;
    int e;
    dd v = log_core(x, &e);
    dd q = two_prod(v.h, INVLN10_H);
    q.l += v.h * INVLN10_L + v.l * INVLN10_H;
    dd a = two_prod((double)e, LOG10_2_H);
    a.l += (double)e * LOG10_2_L;
    dd s = dd_add(a, q);
    return s.h + s.l;
}

double log1p(double x)
{
    if (x != x)
        return x + x;
    if (x <= -1.0) {
        if (x == -1.0) {
            set_errno(ERANGE);
            return -__builtin_inf();
        }
        set_errno(EDOM);
        return invalid();
    }
    if (isinf(x))
        return x;
    if (fabs_(x) < 0x1p-60)
        return x;
    dd u = two_sum(1.0, x);
    dd v = log_full(u.h);
    double c = u.l / u.h;
    v.l += c - 0.5 * c * c;
    return v.h + v.l;
}

/* ================= pow ================= */

/* 0: not an integer, 1: odd integer, 2: even integer */
static int int_kind(double y)
{
    double a = fabs_(y);
    if (a >= 0x1p53)
        return 2;
    if (trunc(a) != a)
        return 0;
    return ((uint64_t)a & 1) ? 1 : 2;
}

double pow(double x, double y)
{
    uint64_t ux = asu(x), uy = asu(y);
    if ((uy << 1) == 0)
        return 1.0;
    if (x == 1.0)
        return 1.0;
    if (x != x || y != y)
        return nan2(x, y);
    int yk = int_kind(y);
    int neg = (int)(ux >> 63);
    if ((ux << 1) == 0) { /* x = +-0 */
        if (uy >> 63) {
            set_errno(ERANGE);
            volatile double t = 1.0 / x; /* divide-by-zero */
            (void)t;
            return (yk == 1 && neg) ? -__builtin_inf() : __builtin_inf();
        }
        return (yk == 1 && neg) ? -0.0 : 0.0;
    }
    double ax = fabs_(x);
    if (isinf(y)) {
        if (ax == 1.0)
            return 1.0;
        if ((ax > 1.0) == !(uy >> 63))
            return __builtin_inf();
        return 0.0;
    }
    if (isinf(x)) {
        int odd = yk == 1 && neg;
        if (uy >> 63)
            return odd ? -0.0 : 0.0;
        return odd ? -__builtin_inf() : __builtin_inf();
    }
    int sign = 0;
    if (neg) {
        if (yk == 0) {
            set_errno(EDOM);
            return invalid();
        }
        sign = yk == 1;
    }
    if (ax == 1.0) /* x = -1, y an integer */
        return sign ? -1.0 : 1.0;
    dd L = log_full(ax);
    double th = y * L.h;
    double r;
    if (th > 710) {
        set_errno(ERANGE);
        r = 0x1p1023 * 0x1p1023;
    } else if (th < -746) {
        set_errno(ERANGE);
        r = 0x1p-1074 * 0x1p-60;
    } else {
        dd t = two_prod(y, L.h);
        t.l += y * L.l;
        t = fast_two_sum(t.h, t.l);
        int k;
        dd v = exp_core(t.h, t.l, &k);
        r = scale_round(v, k);
        if (isinf(r) || r == 0)
            set_errno(ERANGE);
    }
    return sign ? -r : r;
}

/* ================= trigonometric ================= */

/* Bits of 2/pi, 64 per word, most significant first. */
static const uint64_t two_over_pi[20] = {
    0xa2f9836e4e441529ULL, 0xfc2757d1f534ddc0ULL, 0xdb6295993c439041ULL, 0xfe5163abdebbc561ULL,
    0xb7246e3a424dd2e0ULL, 0x06492eea09d1921cULL, 0xfe1deb1cb129a73eULL, 0xe88235f52ebb4484ULL,
    0xe99c7026b45f7e41ULL, 0x3991d639835339f4ULL, 0x9c845f8bbdf9283bULL, 0x1ff897ffde05980fULL,
    0xef2f118b5a0a6d1fULL, 0x6d367ecf27cb09b7ULL, 0x4f463f669e5fea2dULL, 0x7527bac7ebe5f17bULL,
    0x3d0739f78a5292eaULL, 0x6bfb5fb11f8d5d08ULL, 0x56033046fc7b6babULL, 0xf0cfbc209af4361dULL,
};

/* 64 bits of 2/pi starting at bit position pos (bit 1 has weight 2^-1; bits <= 0 are zero). */
static uint64_t tpi_bits(int pos)
{
    int idx = pos - 1;
    if (idx < 0) {
        if (idx <= -64)
            return 0;
        return two_over_pi[0] >> -idx;
    }
    int w = idx >> 6, sh = idx & 63;
    if (sh == 0)
        return two_over_pi[w];
    return (two_over_pi[w] << sh) | (two_over_pi[w + 1] >> (64 - sh));
}

/* x - n pi/2 = r (double-double), |r| <= ~pi/4; returns n (mod 4 is what matters). */
static int rem_pio2(double x, dd *r)
{
    double ax = fabs_(x);
    int n;
    dd v;
    if (ax < 0x1p20) {
        double fn = (double)nearest_l(ax * INVPIO2);
        double a = ax - fn * PIO2_1; /* exact */
        dd t = two_sum(a, -(fn * PIO2_2));
        dd t2 = two_sum(t.h, -(fn * PIO2_3));
        double lo = t.l + t2.l - fn * PIO2_4;
        v = two_sum(t2.h, lo);
        n = (int)fn;
    } else {
        /* Payne-Hanek: ax = M 2^E, frac(ax * 2/pi / 8) * 8 from a 192-bit window of 2/pi */
        uint64_t u = asu(ax);
        int E = (int)(u >> 52) - 1075;
        uint64_t M = (u & MANT_MASK) | IMPL_BIT;
        int p = E - 2;
        uint64_t w0 = tpi_bits(p), w1 = tpi_bits(p + 64), w2 = tpi_bits(p + 128);
        u128 t2 = (u128)M * w2;
        uint64_t p0 = (uint64_t)t2;
        u128 t1 = (u128)M * w1 + (uint64_t)(t2 >> 64);
        uint64_t p1 = (uint64_t)t1;
        uint64_t p2 = (uint64_t)((u128)M * w0 + (uint64_t)(t1 >> 64));
        /* value = P * 2^-189 (mod 8): integer part = top 3 bits of p2 */
        n = (int)(p2 >> 61);
        u128 F = ((u128)((p2 << 3) | (p1 >> 61)) << 64) | ((p1 << 3) | (p0 >> 61));
        int neg = 0;
        if (F >> 127) { /* fraction >= 1/2: use fraction - 1 */
            n++;
            F = -F;
            neg = 1;
        }
        /* F * 2^-128 to a double-double, then times pi/2 */
        int lz = clz128(F);
        u128 Fn = F << lz;
        double fh = (double)(int64_t)(uint64_t)(Fn >> 75) * pow2i(-53 - lz);
        double fl = (double)(int64_t)(uint64_t)((Fn >> 22) & ((1ULL << 53) - 1)) * pow2i(-106 - lz);
        dd pr = two_prod(fh, PIO2_H);
        pr.l += fh * PIO2_L + fl * PIO2_H;
        v = fast_two_sum(pr.h, pr.l);
        if (neg) {
            v.h = -v.h;
            v.l = -v.l;
        }
    }
    if (x < 0) {
        v.h = -v.h;
        v.l = -v.l;
        n = -n;
    }
    *r = v;
    return n;
}

/* sin(r.h + r.l), |r| <= ~pi/4 */
static dd ksin(dd r)
{
    double x = r.h;
    dd z = two_prod(x, x);
    dd c = two_prod(x, z.h); /* x^3 */
    c.l += x * z.l;
    dd a = two_prod(c.h, C6_H); /* x^3/6 */
    a.l += c.l * C6_H + c.h * C6_L;
    double w = z.h;
    double rest = c.h * w * (1.0 / 120 - w * (1.0 / 5040 - w * (1.0 / 362880 - w * (1.0 / 39916800 -
                  w * (1.0 / 6227020800 - w * (1.0 / 1307674368000 - w * (1.0 / 355687428096000 -
                  w * (1.0 / 121645100408832000.0))))))));
    dd s = two_sum(x, -a.h);
    double lo = s.l - a.l + rest + r.l * (1.0 - 0.5 * w);
    return fast_two_sum(s.h, lo);
}

/* cos(r.h + r.l), |r| <= ~pi/4 */
static dd kcos(dd r)
{
    double x = r.h;
    dd z = two_prod(x, x);
    double w = z.h;
    dd s = two_sum(1.0, -0.5 * w);
    double rest = w * w * (1.0 / 24 - w * (1.0 / 720 - w * (1.0 / 40320 - w * (1.0 / 3628800 -
                  w * (1.0 / 479001600 - w * (1.0 / 87178291200 - w * (1.0 / 20922789888000 -
                  w * (1.0 / 6402373705728000 - w * (1.0 / 2432902008176640000.0)))))))));
    double lo = s.l - 0.5 * z.l + rest - r.l * x;
    return fast_two_sum(s.h, lo);
}

double sin(double x)
{
    uint64_t u = asu(x);
    if (((u >> 52) & 0x7ff) == 0x7ff) {
        if (u << 12)
            return x + x;
        set_errno(EDOM);
        return invalid();
    }
    if (fabs_(x) <= PIO4_H) {
        if (fabs_(x) < 0x1p-26)
            return x;
        dd r = { x, 0 };
        dd s = ksin(r);
        return s.h + s.l;
    }
    dd r;
    int n = rem_pio2(x, &r);
    dd v = (n & 1) ? kcos(r) : ksin(r);
    double res = v.h + v.l;
    return (n & 2) ? -res : res;
}

double cos(double x)
{
    uint64_t u = asu(x);
    if (((u >> 52) & 0x7ff) == 0x7ff) {
        if (u << 12)
            return x + x;
        set_errno(EDOM);
        return invalid();
    }
    if (fabs_(x) <= PIO4_H) {
        if (fabs_(x) < 0x1p-27)
            return 1.0;
        dd r = { x, 0 };
        dd c = kcos(r);
        return c.h + c.l;
    }
    dd r;
    int n = rem_pio2(x, &r);
    dd v = (n & 1) ? ksin(r) : kcos(r);
    double res = v.h + v.l;
    return ((n + 1) & 2) ? -res : res;
}

double tan(double x)
{
    uint64_t u = asu(x);
    if (((u >> 52) & 0x7ff) == 0x7ff) {
        if (u << 12)
            return x + x;
        set_errno(EDOM);
        return invalid();
    }
    if (fabs_(x) < 0x1p-27)
        return x;
    dd r;
    int n;
    if (fabs_(x) <= PIO4_H) {
        r.h = x;
        r.l = 0;
        n = 0;
    } else
        n = rem_pio2(x, &r);
    dd s = ksin(r), c = kcos(r);
    dd q;
    if (n & 1) {
        q = dd_div(c, s);
        return -(q.h + q.l);
    }
    q = dd_div(s, c);
    return q.h + q.l;
}

/* ---- inverse trigonometric ---- */

static const double atan_tab[9][2] = {
    { 0x0.0p+0, 0x0.0p+0 },
    { 0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59 },
    { 0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57 },
    { 0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56 },
    { 0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56 },
    { 0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58 },
    { 0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56 },
    { 0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56 },
    { 0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55 },
};

/* atan(t), t a double-double in [0, ~1] */
static dd atan_small(dd t)
{
    int j = (int)(t.h * 8 + 0.5);
    if (j > 8)
        j = 8;
    dd u;
    if (j == 0)
        u = t;
    else {
        double c = j * 0.125;
        dd num = two_sum(t.h - c, t.l); /* t.h - c exact */
        dd p = two_prod(c, t.h);
        dd den = two_sum(1.0, p.h);
        den.l += p.l + c * t.l;
        den = fast_two_sum(den.h, den.l);
        u = dd_div(num, den);
    }
    double w = u.h * u.h;
    double tail = u.h * w * (-1.0 / 3 + w * (1.0 / 5 + w * (-1.0 / 7 + w * (1.0 / 9 + w * (-1.0 / 11 +
                  w * (1.0 / 13 + w * (-1.0 / 15 + w * (1.0 / 17 + w * (-1.0 / 19)))))))));
    dd s = two_sum(atan_tab[j][0], u.h);
    return fast_two_sum(s.h, s.l + atan_tab[j][1] + u.l + tail);
}

/* atan2 of double-doubles y >= 0, x >= 0 (not both zero, moderate range): [0, pi/2] */
static dd atan2_core(dd y, dd x)
{
    static const dd pio2 = { PIO2_H, PIO2_L };
    if (y.h > x.h) {
        dd a = atan_small(dd_div(x, y));
        a.h = -a.h;
        a.l = -a.l;
        return dd_add(pio2, a);
    }
    return atan_small(dd_div(y, x));
}

double atan(double x)
{
    if (x != x)
        return x + x;
    double ax = fabs_(x);
    if (ax < 0x1p-27)
        return x;
    if (ax > 0x1p60)
        return (x < 0) ? -PIO2_H : PIO2_H;
    dd y = { ax, 0 }, one = { 1.0, 0 };
    dd a = atan2_core(y, one);
    double r = a.h + a.l;
    return (x < 0) ? -r : r;
}

double atan2(double y, double x)
{
    if (x != x || y != y)
        return nan2(y, x);
    uint64_t ux = asu(x), uy = asu(y);
    int sy = (int)(uy >> 63), sx = (int)(ux >> 63);
    double r;
    if ((uy << 1) == 0) {
        r = sx ? PI_H : 0.0;
    } else if ((ux << 1) == 0) {
        r = PIO2_H;
    } else if (isinf(x)) {
        if (isinf(y))
            r = sx ? PI3O4_H : PIO4_H;
        else
            r = sx ? PI_H : 0.0;
    } else if (isinf(y)) {
        r = PIO2_H;
    } else {
        double ay = fabs_(y), ax = fabs_(x);
        int ey = (int)((asu(ay) >> 52) & 0x7ff), ex = (int)((asu(ax) >> 52) & 0x7ff);
        if (ey == 0 || ex == 0) {
            ay *= 0x1p600;
            ax *= 0x1p600;
            ey = (int)((asu(ay) >> 52) & 0x7ff);
            ex = (int)((asu(ax) >> 52) & 0x7ff);
        }
        if (ey - ex > 60)
            r = PIO2_H;
        else if (ex - ey > 60) {
            if (sx)
                r = PI_H;
            else {
                r = fabs_(y) / fabs_(x);
                if (r == 0 || r < 0x1p-1022)
                    set_errno(ERANGE);
            }
        } else {
            ay = scalbn(ay, 0x3ff - ex);
            ax = scalbn(ax, 0x3ff - ex);
            dd Y = { ay, 0 }, X = { ax, 0 };
            dd a = atan2_core(Y, X);
            if (sx) {
                dd pi = { PI_H, PI_L };
                a.h = -a.h;
                a.l = -a.l;
                a = dd_add(pi, a);
            }
            r = a.h + a.l;
        }
    }
    return sy ? -r : r;
}

/* sqrt(1 - x^2) as a double-double, 0 <= x <= 1 */
static dd sqrt1mx2(double x)
{
    dd p = two_prod(x, x);
    dd w = two_sum(1.0, -p.h);
    w.l -= p.l;
    w = fast_two_sum(w.h, w.l);
    if (w.h <= 0) {
        dd z = { 0, 0 };
        return z;
    }
    return dd_sqrt(w);
}

double asin(double x)
{
    if (x != x)
        return x + x;
    double ax = fabs_(x);
    if (ax > 1.0) {
        set_errno(EDOM);
        return invalid();
    }
    if (ax < 0x1p-26)
        return x;
    dd s = sqrt1mx2(ax);
    dd y = { ax, 0 };
    dd a = atan2_core(y, s);
    double r = a.h + a.l;
    return (x < 0) ? -r : r;
}

double acos(double x)
{
    if (x != x)
        return x + x;
    double ax = fabs_(x);
    if (ax > 1.0) {
        set_errno(EDOM);
        return invalid();
    }
    if (x == 1.0)
        return 0.0;
    if (ax < 0x1p-57)
        return PIO2_H;
    dd s = sqrt1mx2(ax);
    dd xx = { ax, 0 };
    dd a = atan2_core(s, xx);
    if (x < 0) {
        dd pi = { PI_H, PI_L };
        a.h = -a.h;
        a.l = -a.l;
        a = dd_add(pi, a);
    }
    return a.h + a.l;
}

/* ================= hyperbolic ================= */

double sinh(double x)
{
    if (x != x || isinf(x))
        return x + x;
    double ax = fabs_(x);
    double r;
    if (ax < 0x1p-28)
        return x;
    if (ax < 22) {
        /* sinh = (E + E/(E+1)) / 2, E = expm1(|x|) */
        dd E = expm1_core(ax);
        dd D = two_sum(1.0, E.h);
        D.l += E.l;
        D = fast_two_sum(D.h, D.l);
        dd Q = dd_div(E, D);
        dd S = dd_add(E, Q);
        r = 0.5 * (S.h + S.l);
    } else if (ax > 711) {
        set_errno(ERANGE);
        r = 0x1p1023 * 0x1p1023;
    } else {
        int k;
        dd v = exp_core(ax, 0.0, &k);
        r = scale_round(v, k - 1);
        if (isinf(r))
            set_errno(ERANGE);
    }
    return (x < 0) ? -r : r;
}

double cosh(double x)
{
    if (x != x)
        return x + x;
    double ax = fabs_(x);
    if (isinf(ax))
        return ax;
    if (ax < 0x1p-27)
        return 1.0;
    if (ax < 22) {
        int k;
        dd v = exp_core(ax, 0.0, &k);
        double sc = pow2i(k);
        dd A = { v.h * sc, v.l * sc };
        dd one = { 1.0, 0 };
        dd B = dd_div(one, A);
        dd S = dd_add(A, B);
        return 0.5 * (S.h + S.l);
    }
    if (ax > 711) {
        set_errno(ERANGE);
        return 0x1p1023 * 0x1p1023;
    }
    int k;
    dd v = exp_core(ax, 0.0, &k);
    double r = scale_round(v, k - 1);
    if (isinf(r))
        set_errno(ERANGE);
    return r;
}

double tanh(double x)
{
    if (x != x)
        return x + x;
    double ax = fabs_(x);
    double r;
    if (ax < 0x1p-28)
        return x;
    if (ax > 22)
        r = 1.0;
    else {
        dd E = expm1_core(2 * ax);
        dd D = two_sum(2.0, E.h);
        D.l += E.l;
        D = fast_two_sum(D.h, D.l);
        dd q = dd_div(E, D);
        r = q.h + q.l;
    }
    return (x < 0) ? -r : r;
}

/* log of a double-double t > 0 */
static dd log_dd(dd t)
{
    dd v = log_full(t.h);
    double c = t.l / t.h;
    v.l += c - 0.5 * c * c;
    return fast_two_sum(v.h, v.l);
}

double asinh(double x)
{
    if (x != x || isinf(x))
        return x + x;
    double ax = fabs_(x);
    double r;
    if (ax < 0x1p-28)
        return x;
    if (ax > 0x1p28) {
        dd v = log_full(ax);
        dd l2 = { LN2_H, LN2_L };
        v = dd_add(v, l2);
        r = v.h + v.l;
    } else {
        dd p = two_prod(ax, ax);
        dd w = two_sum(1.0, p.h);
        w.l += p.l;
        w = fast_two_sum(w.h, w.l);
        dd s = dd_sqrt(w);
        dd t = two_sum(ax, s.h);
        t.l += s.l;
        t = fast_two_sum(t.h, t.l);
        dd v = log_dd(t);
        r = v.h + v.l;
    }
    return (x < 0) ? -r : r;
}

double acosh(double x)
{
    if (x != x)
        return x + x;
    if (x < 1.0) {
        set_errno(EDOM);
        return invalid();
    }
    if (x == 1.0)
        return 0.0;
    if (isinf(x))
        return x;
    if (x > 0x1p28) {
        dd v = log_full(x);
        dd l2 = { LN2_H, LN2_L };
        v = dd_add(v, l2);
        return v.h + v.l;
    }
    dd p = two_prod(x, x);
    dd w = two_sum(p.h, -1.0);
    w.l += p.l;
    w = fast_two_sum(w.h, w.l);
    dd s = dd_sqrt(w);
    dd t = two_sum(x, s.h);
    t.l += s.l;
    t = fast_two_sum(t.h, t.l);
    dd v = log_dd(t);
    return v.h + v.l;
}

double atanh(double x)
{
    if (x != x)
        return x + x;
    double ax = fabs_(x);
    if (ax > 1.0) {
        set_errno(EDOM);
        return invalid();
    }
    if (ax == 1.0) {
        set_errno(ERANGE);
        return x / 0.0;
    }
    if (ax < 0x1p-28)
        return x;
    dd num = two_sum(1.0, ax);
    dd den = two_sum(1.0, -ax);
    dd q = dd_div(num, den);
    dd v = log_dd(q);
    double r = 0.5 * (v.h + v.l);
    return (x < 0) ? -r : r;
}

/* ================= float versions (double, rounded once) ================= */

float expf(float x) { return (float)exp(x); }
float exp2f(float x) { return (float)exp2(x); }
float expm1f(float x) { return (float)expm1(x); }
float logf(float x) { return (float)log(x); }
float log2f(float x) { return (float)log2(x); }
float log10f(float x) { return (float)log10(x); }
float log1pf(float x) { return (float)log1p(x); }
float powf(float x, float y) { return (float)pow(x, y); }
float sinf(float x) { return (float)sin(x); }
float cosf(float x) { return (float)cos(x); }
float tanf(float x) { return (float)tan(x); }
float asinf(float x) { return (float)asin(x); }
float acosf(float x) { return (float)acos(x); }
float atanf(float x) { return (float)atan(x); }
float atan2f(float y, float x) { return (float)atan2(y, x); }
float sinhf(float x) { return (float)sinh(x); }
float coshf(float x) { return (float)cosh(x); }
float tanhf(float x) { return (float)tanh(x); }
float asinhf(float x) { return (float)asinh(x); }
float acoshf(float x) { return (float)acosh(x); }
float atanhf(float x) { return (float)atanh(x); }
