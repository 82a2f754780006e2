/* structs.c: structs by value as AAPCS64 passes them: small ones (up to 16 bytes) in one or two
 * registers, larger ones by address (the callee works on its copy), results in x0/x1 or
 * through x8; initialised from a call, assigned from a call, passed along; compound literals. */
#include "testio.h"

typedef struct { int x, y; } Pt;            /* 8 bytes: one register */
typedef struct { long a; char c; } Pair;    /* 16 bytes: two registers */
typedef struct { int v[3]; } Three;         /* 12 bytes: two registers */
typedef struct { long w[5]; } Big;          /* 40 bytes: by address */
typedef union { long l; int i[2]; unsigned char b[8]; } Bits;
struct Tagged { int kind; union { long n; char s[12]; } u; };

Pt make_pt(int x, int y) { Pt p; p.x = x; p.y = y; return p; }
Pt add_pt(Pt a, Pt b) { Pt r = {a.x + b.x, a.y + b.y}; return r; }
Pair make_pair(long a, char c) { Pair p = {a, c}; return p; }
Three rot(Three t) { Three r = {{t.v[1], t.v[2], t.v[0]}}; return r; }

Big scale(Big b, int k)
{
    for (int i = 0; i < 5; i++) b.w[i] *= k; /* its own copy */
    return b;
}

long sum_big(Big b) { long s = 0; for (int i = 0; i < 5; i++) s += b.w[i]; return s; }

long mixed(int a, Pt p, long b, Pair q, Big big, int c)
{
    return a + p.x * 10 + p.y * 100 + b + q.a + q.c + big.w[4] + c;
}

int main(void)
{
    Pt p = make_pt(3, 4);
    out(p.x * 10 + p.y);
    Pt q = add_pt(p, make_pt(10, 20));
    out(q.x * 100 + q.y);
    Pair pr = make_pair(1000000000000, 'z');
    out(pr.a + pr.c);
    Three t = {{1, 2, 3}};
    t = rot(rot(t));
    out(t.v[0] * 100 + t.v[1] * 10 + t.v[2]);
    Big b = {{1, 2, 3, 4, 5}};
    Big c = scale(b, 10);
    out(sum_big(b) * 1000 + sum_big(c));
    out(mixed(1, p, 2, pr, c, 3));
    out(add_pt(make_pt(1, 1), make_pt(2, 2)).y);
    /* Unions: every member at offset 0, the size of the largest (rounded to its alignment). */
    Bits bits;
    bits.l = 0x0102030405060708;
    out(bits.b[0] + bits.b[7] * 100 + bits.i[1] * 1000 + sizeof(Bits));
    struct Tagged tg = {2, {77}};
    out(tg.u.n + sizeof(struct Tagged) * 1000);
    /* Compound literals: a struct, an array, one passed by value. */
    Pt r = (Pt){7, 8};
    int *v = (int[]){4, 5, 6};
    out(r.x * 10 + r.y + v[2] + add_pt((Pt){1, 2}, r).y);
    return 0;
}
