/* 16-bit integer edge cases: wraparound, division, remainder, shifts, sign extension. */
#include <stdio.h>
#include <stdint.h>

static volatile int16_t sv[] = {-32768, -32767, -1000, -255, -1, 0, 1, 255, 1000, 32767};
static volatile uint16_t uv[] = {0, 1, 3, 255, 256, 1000, 32767, 32768, 65534, 65535};

int main(void)
{
    unsigned long h = 0;
    for (int i = 0; i < 10; i++) {
        for (int j = 0; j < 10; j++) {
            int16_t a = sv[i], b = sv[j];
            uint16_t c = uv[i], d = uv[j];
            h = h * 31 + (uint16_t)(a + b) + 3u * (uint16_t)(a * b) + 5u * (uint16_t)(a - b);
            h = h * 37 + (uint16_t)(c + d) + 7u * (uint16_t)(c * d);
            if (b != 0 && !(a == -32768 && b == -1))
                h = h * 41 + (uint16_t)(a / b) + 9u * (uint16_t)(a % b);
            if (d != 0)
                h = h * 43 + (uint16_t)(c / d) + 11u * (uint16_t)(c % d);
            int sh = d & 15;
            h = h * 47 + (uint16_t)(c << sh) + (uint16_t)(c >> sh) + (uint16_t)(a >> sh);
        }
        printf("row %d: %d %u sext=%ld zext=%lu h=%lx\n", i, sv[i], uv[i], (long)sv[i],
               (unsigned long)uv[i], h);
    }
    printf("final %lx\n", h);
    return 0;
}
