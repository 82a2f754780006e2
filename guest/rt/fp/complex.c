/* complex.c: <complex.h> for the garm guest runtime, plus the helpers clang calls for complex
 * multiplication and division (__muldc3, __divdc3, __mulsc3, __divsc3), with C99 Annex G
 * treatment of infinities (an infinite operand gives an infinite result, not NaN + NaN i). */
#include <complex.h>
#include <math.h>

/* A NaN result is returned as the AArch64 default NaN on every target (x86 would make -qNaN),
 * so the guest and the native oracle agree bit for bit. */
static double canon(double v) { return isnan(v) ? __builtin_nan("") : v; }
static float canonf(float v) { return isnan(v) ? __builtin_nanf("") : v; }

static double inf_or_zero(double v) { return copysign(isinf(v) ? 1.0 : 0.0, v); }
static double nan_to_zero(double v) { return isnan(v) ? copysign(0.0, v) : v; }

double _Complex __muldc3(double a, double b, double c, double d)
{
    double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    double x = ac - bd, y = ad + bc;
    if (isnan(x) && isnan(y)) {
        int again = 0;
        if (isinf(a) || isinf(b)) { /* (a+bi) infinite: make it a unit box, NaNs of the other 0 */
            a = inf_or_zero(a);
            b = inf_or_zero(b);
            c = nan_to_zero(c);
            d = nan_to_zero(d);
            again = 1;
        }
        if (isinf(c) || isinf(d)) {
            c = inf_or_zero(c);
            d = inf_or_zero(d);
            a = nan_to_zero(a);
            b = nan_to_zero(b);
            again = 1;
        }
        if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
            /* overflow in the partial products: recover the infinities */
            a = nan_to_zero(a);
            b = nan_to_zero(b);
            c = nan_to_zero(c);
            d = nan_to_zero(d);
            again = 1;
        }
        if (again) {
            x = __builtin_inf() * (a * c - b * d);
            y = __builtin_inf() * (a * d + b * c);
        }
    }
    return __builtin_complex(canon(x), canon(y));
}

double _Complex __divdc3(double a, double b, double c, double d)
{
    /* scale the divisor by a power of two so that c*c + d*d neither overflows nor underflows */
    int ilogbw = 0;
    double logbw = logb(fmax(fabs(c), fabs(d)));
    if (isfinite(logbw)) {
        ilogbw = (int)logbw;
        c = scalbn(c, -ilogbw);
        d = scalbn(d, -ilogbw);
    }
    double den = c * c + d * d;
    double x = scalbn((a * c + b * d) / den, -ilogbw);
    double y = scalbn((b * c - a * d) / den, -ilogbw);
    if (isnan(x) && isnan(y)) {
        if (den == 0.0 && (!isnan(a) || !isnan(b))) {
            x = copysign(__builtin_inf(), c) * a;
            y = copysign(__builtin_inf(), c) * b;
        } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
            a = inf_or_zero(a);
            b = inf_or_zero(b);
            x = __builtin_inf() * (a * c + b * d);
            y = __builtin_inf() * (b * c - a * d);
        } else if (isinf(logbw) && logbw > 0.0 && isfinite(a) && isfinite(b)) {
            c = inf_or_zero(c);
            d = inf_or_zero(d);
            x = 0.0 * (a * c + b * d);
            y = 0.0 * (b * c - a * d);
        }
    }
    return __builtin_complex(canon(x), canon(y));
}

/* float: the same algorithms in float arithmetic */
static float inf_or_zerof(float v) { return copysignf(isinf(v) ? 1.0f : 0.0f, v); }
static float nan_to_zerof(float v) { return isnan(v) ? copysignf(0.0f, v) : v; }

float _Complex __mulsc3(float a, float b, float c, float d)
{
    float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    float x = ac - bd, y = ad + bc;
    if (isnan(x) && isnan(y)) {
        int again = 0;
        if (isinf(a) || isinf(b)) {
            a = inf_or_zerof(a);
            b = inf_or_zerof(b);
            c = nan_to_zerof(c);
            d = nan_to_zerof(d);
            again = 1;
        }
        if (isinf(c) || isinf(d)) {
            c = inf_or_zerof(c);
            d = inf_or_zerof(d);
            a = nan_to_zerof(a);
            b = nan_to_zerof(b);
            again = 1;
        }
        if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
            a = nan_to_zerof(a);
            b = nan_to_zerof(b);
            c = nan_to_zerof(c);
            d = nan_to_zerof(d);
            again = 1;
        }
        if (again) {
            x = __builtin_inff() * (a * c - b * d);
            y = __builtin_inff() * (a * d + b * c);
        }
    }
    return __builtin_complex(canonf(x), canonf(y));
}

float _Complex __divsc3(float a, float b, float c, float d)
{
    int ilogbw = 0;
    float logbw = logbf(fmaxf(fabsf(c), fabsf(d)));
    if (isfinite(logbw)) {
        ilogbw = (int)logbw;
        c = scalbnf(c, -ilogbw);
        d = scalbnf(d, -ilogbw);
    }
    float den = c * c + d * d;
    float x = scalbnf((a * c + b * d) / den, -ilogbw);
    float y = scalbnf((b * c - a * d) / den, -ilogbw);
    if (isnan(x) && isnan(y)) {
        if (den == 0.0f && (!isnan(a) || !isnan(b))) {
            x = copysignf(__builtin_inff(), c) * a;
            y = copysignf(__builtin_inff(), c) * b;
        } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
            a = inf_or_zerof(a);
            b = inf_or_zerof(b);
            x = __builtin_inff() * (a * c + b * d);
            y = __builtin_inff() * (b * c - a * d);
        } else if (isinf(logbw) && logbw > 0.0f && isfinite(a) && isfinite(b)) {
            c = inf_or_zerof(c);
            d = inf_or_zerof(d);
            x = 0.0f * (a * c + b * d);
            y = 0.0f * (b * c - a * d);
        }
    }
    return __builtin_complex(canonf(x), canonf(y));
}

double creal(double _Complex z) { return __real__ z; }
float crealf(float _Complex z) { return __real__ z; }
double cimag(double _Complex z) { return __imag__ z; }
float cimagf(float _Complex z) { return __imag__ z; }
double _Complex conj(double _Complex z) { return __builtin_complex(__real__ z, -__imag__ z); }
float _Complex conjf(float _Complex z) { return __builtin_complex(__real__ z, -__imag__ z); }
double _Complex cproj(double _Complex z)
{
    if (isinf(__real__ z) || isinf(__imag__ z))
        return __builtin_complex(__builtin_inf(), copysign(0.0, __imag__ z));
    return z;
}
float _Complex cprojf(float _Complex z)
{
    if (isinf(__real__ z) || isinf(__imag__ z))
        return __builtin_complex(__builtin_inff(), copysignf(0.0f, __imag__ z));
    return z;
}
double cabs(double _Complex z) { return hypot(__real__ z, __imag__ z); }
float cabsf(float _Complex z) { return hypotf(__real__ z, __imag__ z); }
double carg(double _Complex z) { return atan2(__imag__ z, __real__ z); }
float cargf(float _Complex z) { return atan2f(__imag__ z, __real__ z); }

double _Complex cexp(double _Complex z)
{
    double x = __real__ z, y = __imag__ z;
    if (y == 0.0 && !isnan(x))
        return __builtin_complex(exp(x), y);
    if (isinf(x) && !isfinite(y)) {
        if (x < 0)
            return __builtin_complex(0.0, 0.0);
        return __builtin_complex(x, y - y);
    }
    if (x > 709.0 && isfinite(y)) { /* exp(x) overflows but exp(x) cos(y) may not */
        double e = exp(x - 709.0);
        double big = exp(709.0);
        return __builtin_complex(e * cos(y) * big, e * sin(y) * big);
    }
    double e = exp(x);
    return __builtin_complex(e * cos(y), e * sin(y));
}
float _Complex cexpf(float _Complex z)
{
    double _Complex r = cexp(__builtin_complex((double)__real__ z, (double)__imag__ z));
    return __builtin_complex((float)__real__ r, (float)__imag__ r);
}

double _Complex clog(double _Complex z)
{
    return __builtin_complex(log(cabs(z)), carg(z));
}
float _Complex clogf(float _Complex z)
{
    double _Complex r = clog(__builtin_complex((double)__real__ z, (double)__imag__ z));
    return __builtin_complex((float)__real__ r, (float)__imag__ r);
}

double _Complex csqrt(double _Complex z)
{
    double x = __real__ z, y = __imag__ z;
    if (isinf(y))
        return __builtin_complex(__builtin_inf(), y);
    if (isnan(x))
        return __builtin_complex(x, y - y + x);
    if (isinf(x)) {
        if (x > 0)
            return __builtin_complex(x, isnan(y) ? y : copysign(0.0, y));
        return __builtin_complex(isnan(y) ? y : 0.0, copysign(-x, y));
    }
    if (isnan(y))
        return __builtin_complex(y, y);
    if (x == 0.0 && y == 0.0)
        return __builtin_complex(0.0, y);
    /* t = sqrt((|x| + |z|) / 2), computed with scaling against overflow */
    double ax = fabs(x), ay = fabs(y);
    double t;
    if (ax > 0x1p1020 || ay > 0x1p1020)
        t = sqrt(0.5 * (0.25 * ax + hypot(0.25 * ax, 0.25 * ay))) * 2.0;
    else if (ax < 0x1p-1000 && ay < 0x1p-1000)
        t = sqrt(0.5 * (0x1p200 * ax + hypot(0x1p200 * ax, 0x1p200 * ay))) * 0x1p-100;
    else
        t = sqrt(0.5 * (ax + hypot(ax, ay)));
    if (x >= 0)
        return __builtin_complex(t, y / (2.0 * t));
    return __builtin_complex(ay / (2.0 * t), copysign(t, y));
}
float _Complex csqrtf(float _Complex z)
{
    double _Complex r = csqrt(__builtin_complex((double)__real__ z, (double)__imag__ z));
    return __builtin_complex((float)__real__ r, (float)__imag__ r);
}

double _Complex cpow(double _Complex z, double _Complex w)
{
    if (__real__ z == 0.0 && __imag__ z == 0.0 && __imag__ w == 0.0 && __real__ w > 0.0)
        return __builtin_complex(0.0, 0.0);
    return cexp(w * clog(z));
}
float _Complex cpowf(float _Complex z, float _Complex w)
{
    double _Complex r = cpow(__builtin_complex((double)__real__ z, (double)__imag__ z),
                             __builtin_complex((double)__real__ w, (double)__imag__ w));
    return __builtin_complex((float)__real__ r, (float)__imag__ r);
}
