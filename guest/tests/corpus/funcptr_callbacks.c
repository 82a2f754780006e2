/* Function pointers: tables, callbacks with context, returning function pointers, composition. */
#include <stdio.h>

typedef long (*unop)(long);
typedef long (*binop)(long, long);

static long inc(long x) { return x + 1; }
static long dbl(long x) { return x * 2; }
static long sq(long x) { return x * x; }
static long neg(long x) { return -x; }
static long add(long a, long b) { return a + b; }
static long mul(long a, long b) { return a * b; }
static long mx(long a, long b) { return a > b ? a : b; }

static long fold(const long *v, int n, binop f, long init)
{
    for (int i = 0; i < n; i++)
        init = f(init, v[i]);
    return init;
}

static void each(long *v, int n, unop f)
{
    for (int i = 0; i < n; i++)
        v[i] = f(v[i]);
}

static unop pick(int k)
{
    static const unop t[] = {inc, dbl, sq, neg};
    return t[k & 3];
}

struct visitor { void (*visit)(struct visitor *, int); long total; int count; };
static void vsum(struct visitor *v, int x) { v->total += x; v->count++; }
static void vsq(struct visitor *v, int x) { v->total += (long)x * x; v->count += 2; }

static void walk(int n, struct visitor *v)
{
    for (int i = 1; i <= n; i++)
        v->visit(v, i);
}

int main(void)
{
    long v[10];
    for (int i = 0; i < 10; i++)
        v[i] = i - 3;
    for (int k = 0; k < 6; k++) {
        each(v, 10, pick(k));
        printf("after %d: sum=%ld prod=%ld max=%ld\n", k, fold(v, 10, add, 0), fold(v, 10, mul, 1),
               fold(v, 10, mx, -1000000000L));
    }
    struct visitor a = {vsum, 0, 0}, b = {vsq, 0, 0};
    walk(100, &a);
    walk(100, &b);
    printf("visit: %ld/%d %ld/%d\n", a.total, a.count, b.total, b.count);
    binop ops[3] = {add, mul, mx};
    long r = 1;
    for (int i = 0; i < 30; i++)
        r = ops[i % 3](r, i + 2) % 1000003;
    printf("chain %ld\n", r);
    return 0;
}
