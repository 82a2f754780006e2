/* checks unsigned and signed __int128: arithmetic, shifts, comparisons, conversions, calls */
#include <stdio.h>
typedef unsigned __int128 u128;
typedef __int128 i128;
struct pair { char tag; u128 v; };
static u128 g = 0xfedcba9876543210UL;
static i128 gneg = -5;
static void put(const char *name, u128 v)
{
    printf("%s=%016lx%016lx\n", name, (unsigned long)(v >> 64), (unsigned long)v);
}
static u128 mix(int a, u128 b, long c, i128 d) { return b * (u128)a + (u128)c - (u128)d; }
static i128 half(i128 x) { return x >> 1; }
int main(void)
{
    u128 a = ((u128)1 << 100) + 12345, b = ~(u128)0 - 7;
    i128 s = -((i128)3 << 70);
    put("a", a);
    put("b", b);
    put("sum", a + b);
    put("diff", a - b);
    put("prod", a * 0x1000003);
    put("and", a & b);
    put("or", a | (u128)0xff);
    put("xor", a ^ b);
    put("neg", -a);
    for (int k = 0; k < 128; k += 37) {
        put("shl", b << k);
        put("shr", b >> k);
        put("sar", (u128)(s >> k));
    }
    printf("cmp %d %d %d %d %d %d\n", a < b, b < a, a == a, a != b, s < 0, (i128)a > s);
    printf("conv %ld %lu %d\n", (long)s, (unsigned long)(s >> 64), (int)(a != 0));
    struct pair p = {'x', 0};
    p.v = a;
    p.v += 1;
    p.v <<= 3;
    p.v -= g;
    put("member", p.v);
    put("mix", mix(3, a, -2, gneg));
    put("half", (u128)half(s));
    u128 f = 1;
    for (int k = 1; k <= 30; k++)
        f *= k;
    put("30!", f);
    if (f && !(f == 0))
        printf("truth ok\n");
    return 0;
}
