/* fold.c: garm's C compiler's floating-point constant arithmetic (static initialisers, folded
 * constants). It lives apart from cc.c so that cc.c has no floating-point values: clang then
 * builds cc.c with general registers only, and garm runs the compiler without its FP/SIMD
 * units (they slow every step: stage 1 of the bootstrap took 144 s instead of ~30 s). Values
 * are bits: a double's, or (size 4) a float's. */
#include <string.h>

static double get(long bits, int size)
{
    if (size == 4) {
        unsigned u = (unsigned)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static long put(double d, int size)
{
    if (size == 4) {
        float f = (float)d;
        unsigned u;
        memcpy(&u, &f, 4);
        return u;
    }
    long b;
    memcpy(&b, &d, 8);
    return b;
}

long cc_fp_from_int(long v, int is_unsigned, int size)
{
    return put(is_unsigned ? (double)(unsigned long)v : (double)v, size);
}

long cc_fp_to_int(long bits, int size, int is_unsigned)
{
    double d = get(bits, size);
    return is_unsigned ? (long)(unsigned long)d : (long)d;
}

long cc_fp_convert(long bits, int from, int to) { return put(get(bits, from), to); }

/* op: '+', '-', '*', '/', or 'n' (negation of a). */
long cc_fp_arith(int op, long a, long b, int size)
{
    double x = get(a, size), y = get(b, size);
    double r = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : op == '/' ? x / y : -x;
    return put(r, size);
}

/* op: '=' (==), '!' (!=), '<', 'l' (<=). */
int cc_fp_compare(int op, long a, long b, int size)
{
    double x = get(a, size), y = get(b, size);
    return op == '=' ? x == y : op == '!' ? x != y : op == '<' ? x < y : x <= y;
}
