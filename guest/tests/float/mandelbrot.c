/* Mandelbrot in double: a 60x24 ASCII picture and the iteration total. */
#include <stdio.h>
int main(void)
{
    long total = 0;
    for (int y = 0; y < 24; y++) {
        for (int x = 0; x < 60; x++) {
            double cr = -2.2 + 3.0 * x / 60, ci = -1.2 + 2.4 * y / 24, zr = 0, zi = 0;
            int k = 0;
            while (k < 200 && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                k++;
            }
            total += k;
            putchar(" .:-=+*#%@"[k % 10]);
        }
        putchar('\n');
    }
    printf("total %ld\n", total);
    return 0;
}
