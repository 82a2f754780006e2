/* Struct layout: padding, packed structs, alignment, nested structs, struct copy and return. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct plain { char c; int i; short s; long l; char tail; };
struct __attribute__((packed)) packed { char c; int i; short s; long l; char tail; };
struct __attribute__((aligned(16))) al16 { char c; };
struct inner { uint8_t a; uint16_t b; };
struct outer { struct inner in[3]; uint32_t n; struct inner last; };
struct big { long v[6]; };

static struct big make(long k)
{
    struct big b;
    for (int i = 0; i < 6; i++)
        b.v[i] = k * (i + 1) - i;
    return b;
}

static long sum(struct big b)
{
    long s = 0;
    for (int i = 0; i < 6; i++)
        s = s * 7 + b.v[i];
    return s;
}

int main(void)
{
    printf("plain: size %zu, c@%zu i@%zu s@%zu l@%zu tail@%zu\n", sizeof(struct plain),
           offsetof(struct plain, c), offsetof(struct plain, i), offsetof(struct plain, s),
           offsetof(struct plain, l), offsetof(struct plain, tail));
    printf("packed: size %zu, i@%zu s@%zu l@%zu tail@%zu\n", sizeof(struct packed),
           offsetof(struct packed, i), offsetof(struct packed, s), offsetof(struct packed, l),
           offsetof(struct packed, tail));
    printf("al16 size %zu align %zu; outer size %zu n@%zu last@%zu\n", sizeof(struct al16),
           _Alignof(struct al16), sizeof(struct outer), offsetof(struct outer, n),
           offsetof(struct outer, last));
    struct packed p[4];
    unsigned char raw[sizeof p];
    for (int k = 0; k < 4; k++) {
        p[k].c = (char)('a' + k);
        p[k].i = 0x01020304 * (k + 1);
        p[k].s = (short)(-1000 * k);
        p[k].l = 0x1122334455667788L - k;
        p[k].tail = (char)k;
    }
    memcpy(raw, p, sizeof p);
    unsigned h = 0;
    for (size_t k = 0; k < sizeof raw; k++)
        h = h * 33 + raw[k];
    printf("packed bytes hash %08x, p[3].l=%lx p[2].s=%d\n", h, p[3].l, p[2].s);
    struct outer o = {{{1, 2}, {3, 4}, {5, 6}}, 7, {8, 9}};
    struct outer o2 = o;
    o2.in[1].b = 0xbeef;
    printf("copy: %u %u %u %u\n", o.in[1].b, o2.in[1].b, o2.last.a, o2.n);
    struct big b = make(1000);
    printf("big sum %ld, again %ld\n", sum(b), sum(make(-3)));
    return 0;
}
