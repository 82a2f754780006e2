/* funcs.c: functions as values: pointers to functions in variables, arrays, struct members
 * and parameters, calls through them, & and * on them; return values converted to the
 * declared type; prototypes with what headers carry (restrict, __attribute__, unnamed and
 * variadic parameters). */
#include "testio.h"

int printf(const char *restrict fmt, ...) __attribute__((format(printf, 1, 2)));
void *memcpy_(void *restrict d, const void *restrict s, long n);
int twice(int);

int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
int twice(int x) { return 2 * x; }

typedef int (*binop)(int, int);

struct Op {
    char name[4];
    int (*fn)(int, int);
};

int apply(int (*f)(int, int), int a, int b) { return f(a, b); }

int fold(binop f, int *v, int n, int acc)
{
    for (int i = 0; i < n; i++)
        acc = f(acc, v[i]);
    return acc;
}

int big(void) { return 4000000000; }
unsigned char low(int v) { return v; }
short half(long v) { return v; }

int fact(int n) { int (*self)(int) = fact; return n <= 1 ? 1 : n * self(n - 1); }

int main(void)
{
    int (*f)(int, int) = add;
    out(f(2, 3));
    f = &sub;
    out((*f)(10, 4));
    binop ops[3] = {add, sub, mul};
    int sum = 0;
    for (int i = 0; i < 3; i++) sum += ops[i](7, 3);
    out(sum);
    struct Op table[2] = {{"add", add}, {"mul", mul}};
    out(table[1].fn(6, 7) + apply(table[0].fn, 1, 1));
    int v[4] = {1, 2, 3, 4};
    out(fold(mul, v, 4, 1) + fold(add, v, 4, 100));
    out(big());
    out(low(300));
    out(half(70000));
    out(fact(10));
    out(twice(21));
    out(f == sub && f != add);
    return 0;
}
