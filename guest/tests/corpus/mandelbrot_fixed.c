/* A Mandelbrot set in ASCII, in 16.16... well, 4.28 fixed point with 64-bit products. */
#include <stdio.h>
#include <stdint.h>

#define FRAC 24
#define ONE (1L << FRAC)

int main(void)
{
    const char *shade = " .:-=+*#%@";
    int w = 60, h = 24, maxit = 40;
    long total = 0;
    for (int y = 0; y < h; y++) {
        char line[64];
        int64_t ci = -ONE * 12 / 10 + (int64_t)y * (ONE * 24 / 10) / (h - 1);
        for (int x = 0; x < w; x++) {
            int64_t cr = -ONE * 21 / 10 + (int64_t)x * (ONE * 3) / (w - 1);
            int64_t zr = 0, zi = 0;
            int it = 0;
            while (it < maxit) {
                int64_t zr2 = (zr * zr) >> FRAC, zi2 = (zi * zi) >> FRAC;
                if (zr2 + zi2 > 4 * ONE) break;
                int64_t t = zr2 - zi2 + cr;
                zi = ((zr * zi) >> (FRAC - 1)) + ci;
                zr = t;
                it++;
            }
            total += it;
            line[x] = shade[it == maxit ? 9 : it * 9 / maxit];
        }
        line[w] = 0;
        printf("%s|\n", line);
    }
    printf("total iterations %ld\n", total);
    return 0;
}
