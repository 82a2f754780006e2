/* 8-bit integer edge cases: wraparound, signed/unsigned division and remainder, shifts. */
#include <stdio.h>
#include <stdint.h>

static volatile int8_t sv[] = {-128, -127, -100, -7, -1, 0, 1, 7, 100, 127};
static volatile uint8_t uv[] = {0, 1, 2, 7, 100, 127, 128, 200, 254, 255};

int main(void)
{
    unsigned long h = 0;
    for (int i = 0; i < 10; i++) {
        for (int j = 0; j < 10; j++) {
            int8_t a = sv[i], b = sv[j];
            uint8_t c = uv[i], d = uv[j];
            int8_t s = (int8_t)(a + b), m = (int8_t)(a * b), df = (int8_t)(a - b);
            uint8_t us = (uint8_t)(c + d), um = (uint8_t)(c * d);
            h = h * 31 + (uint8_t)s + 3 * (uint8_t)m + 7 * (uint8_t)df + 11 * us + 13 * um;
            if (b != 0 && !(a == -128 && b == -1)) {
                int8_t q = (int8_t)(a / b), r = (int8_t)(a % b);
                h = h * 17 + (uint8_t)q * 5 + (uint8_t)r;
            }
            if (d != 0)
                h = h * 19 + (uint8_t)(c / d) + (uint8_t)(c % d) * 3;
            int sh = (uv[j] & 7);
            h = h * 23 + (uint8_t)(c << sh) + (uint8_t)(c >> sh) + (uint8_t)(a >> sh);
        }
        printf("row %d: a=%d c=%u neg=%d not=%d h=%lx\n", i, sv[i], uv[i], (int8_t)-sv[i],
               (uint8_t)~uv[i], h);
    }
    int8_t x = 127;
    x++;
    uint8_t y = 0;
    y--;
    printf("127+1=%d 0-1=%u -128/-1(as int)=%d\n", x, y, (int)sv[0] / -1);
    printf("final %lx\n", h);
    return 0;
}
