/* Unions: type punning between integer widths and byte arrays, tagged unions. */
#include <stdio.h>
#include <stdint.h>

union pun { uint64_t q; uint32_t w[2]; uint16_t h[4]; uint8_t b[8]; int8_t sb[8]; };

enum kind { K_INT, K_PAIR, K_STR };
struct value {
    enum kind k;
    union { long i; struct { int x, y; } pair; const char *s; } u;
};

static long weigh(const struct value *v)
{
    switch (v->k) {
    case K_INT: return v->u.i;
    case K_PAIR: return (long)v->u.pair.x * 1000 + v->u.pair.y;
    case K_STR: {
        long n = 0;
        for (const char *p = v->u.s; *p; p++)
            n = n * 7 + *p;
        return n;
    }
    }
    return -1;
}

int main(void)
{
    union pun p;
    p.q = 0x8090a0b0c0d0e0f0UL;
    printf("w=%08x %08x h=%04x %04x %04x %04x\n", p.w[0], p.w[1], p.h[0], p.h[1], p.h[2], p.h[3]);
    for (int i = 0; i < 8; i++)
        printf("b[%d]=%u sb=%d ", i, p.b[i], p.sb[i]);
    printf("\n");
    p.b[3] = 0xff;
    p.h[0] = 0x1234;
    printf("q=%016lx\n", p.q);
    struct value vs[] = {{K_INT, {.i = -42}}, {K_PAIR, {.pair = {3, -4}}}, {K_STR, {.s = "garm"}},
                         {K_INT, {.i = 1L << 40}}};
    long t = 0;
    for (int i = 0; i < 4; i++) {
        long w = weigh(&vs[i]);
        t += w;
        printf("value %d kind %d weight %ld\n", i, vs[i].k, w);
    }
    printf("total %ld sizeof(value)=%zu\n", t, sizeof(struct value));
    return 0;
}
