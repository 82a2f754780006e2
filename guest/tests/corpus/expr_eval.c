/* A recursive-descent evaluator for integer expressions: + - * / % ( ) unary minus, ^ (power). */
#include <stdio.h>

static const char *p;
static int err;

static long expr(void);

static void skip(void) { while (*p == ' ') p++; }

static long primary(void)
{
    skip();
    if (*p == '(') {
        p++;
        long v = expr();
        skip();
        if (*p == ')') p++; else err = 1;
        return v;
    }
    if (*p == '-') { p++; return -primary(); }
    if (*p < '0' || *p > '9') { err = 1; return 0; }
    long v = 0;
    while (*p >= '0' && *p <= '9')
        v = v * 10 + (*p++ - '0');
    return v;
}

static long power(void)
{
    long b = primary();
    skip();
    if (*p == '^') {
        p++;
        long e = power(); /* right associative */
        long r = 1;
        while (e-- > 0)
            r *= b;
        return r;
    }
    return b;
}

static long term(void)
{
    long v = power();
    for (;;) {
        skip();
        char c = *p;
        if (c != '*' && c != '/' && c != '%') return v;
        p++;
        long r = power();
        if (c == '*') v *= r;
        else if (r == 0) { err = 2; return 0; }
        else if (c == '/') v /= r;
        else v %= r;
    }
}

static long expr(void)
{
    long v = term();
    for (;;) {
        skip();
        if (*p == '+') { p++; v += term(); }
        else if (*p == '-') { p++; v -= term(); }
        else return v;
    }
}

static void eval(const char *s)
{
    p = s;
    err = 0;
    long v = expr();
    skip();
    if (*p) err = err ? err : 3;
    if (err) printf("%-40s error %d at offset %d\n", s, err, (int)(p - s));
    else printf("%-40s = %ld\n", s, v);
}

int main(void)
{
    eval("1 + 2 * 3");
    eval("(1 + 2) * 3");
    eval("2 ^ 3 ^ 2");
    eval("-7 / 2 + -7 % 3");
    eval("((((((((((42))))))))))");
    eval("100 / (5 - 5)");
    eval("3 + * 4");
    eval("2 ^ 62 - 1 + 2 ^ 62");
    eval("1 - 2 - 3 - 4 - 5 * (6 - 7 * (8 - 9))");
    eval("12345679 * 81 % 1000007");
    eval("(1");
    /* a deeply nested expression built at run time */
    static char buf[4096];
    int n = 0;
    for (int i = 0; i < 300; i++) buf[n++] = '(';
    buf[n++] = '1';
    for (int i = 0; i < 300; i++) { buf[n++] = '+'; buf[n++] = '1' + i % 9; buf[n++] = ')'; }
    buf[n] = 0;
    p = buf;
    err = 0;
    printf("nested 300: %ld err %d\n", expr(), err);
    return 0;
}
