/* Base64 encode and decode (RFC 4648 test vectors) and a round trip of binary data. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

static const char *A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t enc(const uint8_t *in, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = in[i] << 16 | (i + 1 < n ? in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = A[v >> 18];
        out[o++] = A[v >> 12 & 63];
        out[o++] = i + 1 < n ? A[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? A[v & 63] : '=';
    }
    out[o] = 0;
    return o;
}

static int val(char c) { const char *p = strchr(A, c); return c && p ? (int)(p - A) : -1; }

static long dec(const char *in, uint8_t *out)
{
    size_t n = strlen(in), o = 0;
    if (n % 4) return -1;
    for (size_t i = 0; i < n; i += 4) {
        int a = val(in[i]), b = val(in[i + 1]), c = in[i + 2] == '=' ? 0 : val(in[i + 2]), d = in[i + 3] == '=' ? 0 : val(in[i + 3]);
        if (a < 0 || b < 0 || c < 0 || d < 0) return -1;
        uint32_t v = a << 18 | b << 12 | c << 6 | d;
        out[o++] = v >> 16;
        if (in[i + 2] != '=') out[o++] = v >> 8 & 255;
        if (in[i + 3] != '=') out[o++] = v & 255;
    }
    return (long)o;
}

int main(void)
{
    const char *v[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char *want[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    char out[512];
    uint8_t back[512];
    int fails = 0;
    for (int i = 0; i < 7; i++) {
        enc((const uint8_t *)v[i], strlen(v[i]), out);
        long n = dec(out, back);
        int ok = !strcmp(out, want[i]) && n == (long)strlen(v[i]) && !memcmp(back, v[i], n);
        fails += !ok;
        printf("\"%s\" -> \"%s\" %s\n", v[i], out, ok ? "ok" : "FAIL");
    }
    uint8_t bin[256];
    for (int i = 0; i < 256; i++) bin[i] = (uint8_t)(255 - i);
    enc(bin, 256, out);
    long n = dec(out, back);
    printf("binary: %.40s... round trip %s\n", out, n == 256 && !memcmp(bin, back, 256) ? "ok" : "FAIL");
    printf("bad input -> %ld\n", dec("ab*d", back));
    return fails;
}
