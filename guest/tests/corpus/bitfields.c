/* Bitfields: signed and unsigned fields, widths up to 64, packing, overflow on assignment. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct flags {
    unsigned a : 1;
    unsigned b : 3;
    signed c : 5;
    unsigned d : 7;
    unsigned long e : 40;
    signed long f : 20;
    unsigned g : 2;
};

struct __attribute__((packed)) hdr {
    uint8_t version : 4, ihl : 4;
    uint16_t frag : 13, flg : 3;
    uint32_t ttl : 8, proto : 8, sum : 16;
};

int main(void)
{
    struct flags x;
    memset(&x, 0, sizeof x);
    printf("sizeof flags=%zu hdr=%zu\n", sizeof(struct flags), sizeof(struct hdr));
    for (int i = 0; i < 24; i++) {
        x.a = i;
        x.b = i * 3;
        x.c = i * 5 - 40;
        x.d = i * 11;
        x.e = (unsigned long)i * 0x123456789UL;
        x.f = i * -30000;
        x.g = i;
        x.d += x.b;
        unsigned char raw[sizeof x];
        memcpy(raw, &x, sizeof x);
        unsigned h = 0;
        for (size_t k = 0; k < sizeof raw; k++)
            h = h * 131 + raw[k];
        printf("%2d: a=%u b=%u c=%d d=%u e=%lx f=%ld g=%u raw=%08x\n", i, x.a, x.b, x.c, x.d,
               (unsigned long)x.e, (long)x.f, x.g, h);
    }
    struct hdr hd;
    memset(&hd, 0, sizeof hd);
    hd.version = 4;
    hd.ihl = 5;
    hd.frag = 0x1abc;
    hd.flg = 5;
    hd.ttl = 64;
    hd.proto = 17;
    hd.sum = 0xfeed;
    unsigned char *r = (unsigned char *)&hd;
    printf("hdr bytes:");
    for (size_t k = 0; k < sizeof hd; k++)
        printf(" %02x", r[k]);
    printf("\n");
    return 0;
}
