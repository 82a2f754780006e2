/* Run-length encoding and a tiny LZ77 compressor with decompression checks. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

static int rle(const uint8_t *in, int n, uint8_t *out)
{
    int o = 0;
    for (int i = 0; i < n;) {
        int r = 1;
        while (i + r < n && in[i + r] == in[i] && r < 255) r++;
        out[o++] = (uint8_t)r;
        out[o++] = in[i];
        i += r;
    }
    return o;
}

static int unrle(const uint8_t *in, int n, uint8_t *out)
{
    int o = 0;
    for (int i = 0; i < n; i += 2) for (int k = 0; k < in[i]; k++) out[o++] = in[i + 1];
    return o;
}

/* tokens: literal (0, byte) or match (len>=3, distance 2 bytes) */
static int lz(const uint8_t *in, int n, uint8_t *out)
{
    int o = 0;
    for (int i = 0; i < n;) {
        int best = 0, bd = 0;
        for (int j = i - 1; j >= 0 && i - j < 128; j--) {
            int l = 0;
            while (i + l < n && in[j + l] == in[i + l] && l < 255) l++;
            if (l > best) { best = l; bd = i - j; }
        }
        if (best >= 3) { out[o++] = (uint8_t)best; out[o++] = (uint8_t)(bd >> 8); out[o++] = (uint8_t)bd; i += best; }
        else { out[o++] = 0; out[o++] = in[i++]; }
    }
    return o;
}

static int unlz(const uint8_t *in, int n, uint8_t *out)
{
    int o = 0;
    for (int i = 0; i < n;) {
        if (in[i] == 0) { out[o++] = in[i + 1]; i += 2; }
        else { int l = in[i], d = in[i + 1] << 8 | in[i + 2]; for (int k = 0; k < l; k++, o++) out[o] = out[o - d]; i += 3; }
    }
    return o;
}

int main(void)
{
    static uint8_t data[1200], c[2600], d[1300];
    const char *phrase = "the rain in spain stays mainly in the plain; ";
    int pl = (int)strlen(phrase);
    for (int i = 0; i < 1200; i++) data[i] = i < 300 ? (uint8_t)(i / 37) : i < 900 ? (uint8_t)phrase[i % pl] : (uint8_t)(i * i >> 3);
    int n = rle(data, 1200, c), m = unrle(c, n, d);
    printf("rle: 1200 -> %d, back %d, %s\n", n, m, m == 1200 && !memcmp(d, data, 1200) ? "ok" : "FAIL");
    n = lz(data, 1200, c);
    m = unlz(c, n, d);
    uint32_t h = 0;
    for (int i = 0; i < n; i++) h = h * 131 + c[i];
    printf("lz: 1200 -> %d (digest %08x), back %d, %s\n", n, h, m, m == 1200 && !memcmp(d, data, 1200) ? "ok" : "FAIL");
    return 0;
}
