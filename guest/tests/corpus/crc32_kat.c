/* CRC-32 (IEEE, reflected) known-answer tests, table-driven and bitwise, plus CRC-32C. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t table[256];

static void init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc_table(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint32_t c = ~0u;
    while (n--) c = table[(c ^ *b++) & 0xff] ^ (c >> 8);
    return ~c;
}

static uint32_t crc_bits(const void *p, size_t n, uint32_t poly)
{
    const uint8_t *b = p;
    uint32_t c = ~0u;
    while (n--) {
        c ^= *b++;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (poly & -(c & 1));
    }
    return ~c;
}

int main(void)
{
    init();
    struct { const char *s; uint32_t want; } kat[] = {
        {"", 0x00000000u},
        {"a", 0xe8b7be43u},
        {"abc", 0x352441c2u},
        {"123456789", 0xcbf43926u},
        {"The quick brown fox jumps over the lazy dog", 0x414fa339u},
    };
    int fails = 0;
    for (int i = 0; i < 5; i++) {
        uint32_t a = crc_table(kat[i].s, strlen(kat[i].s)), b = crc_bits(kat[i].s, strlen(kat[i].s), 0xEDB88320u);
        int ok = a == kat[i].want && b == a;
        fails += !ok;
        printf("crc32(\"%s\") = %08x %s\n", kat[i].s, a, ok ? "ok" : "FAIL");
    }
    uint32_t c = crc_bits("123456789", 9, 0x82F63B78u);
    printf("crc32c(\"123456789\") = %08x %s\n", c, c == 0xe3069283u ? "ok" : "FAIL");
    fails += c != 0xe3069283u;
    static uint8_t buf[4096];
    for (int i = 0; i < 4096; i++) buf[i] = (uint8_t)(i * 7 + (i >> 8));
    printf("crc32(4 KiB pattern) = %08x\n", crc_table(buf, sizeof buf));
    printf("%s\n", fails ? "FAILED" : "all ok");
    return fails != 0;
}
