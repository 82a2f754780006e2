/* life.c: Conway's Life on a 32x16 torus seeded with a glider and an R-pentomino. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 32, H = 16 };
static unsigned char grid[H][W], next[H][W];

static void set(int x, int y) { grid[y][x] = 1; }

static void step(void)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int n = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (dx || dy)
                        n += grid[(y + dy + H) % H][(x + dx + W) % W];
            next[y][x] = n == 3 || (n == 2 && grid[y][x]);
        }
    }
    memcpy(grid, next, sizeof grid);
}

static void show(long gen)
{
    int alive = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            alive += grid[y][x];
    printf("generation %ld (%d alive)\n", gen, alive);
    char line[W + 2];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            line[x] = grid[y][x] ? '#' : '.';
        line[W] = '\n';
        line[W + 1] = '\0';
        fputs(line, stdout);
    }
}

int main(int argc, char **argv)
{
    long gens = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
    if (gens < 0)
        gens = 0;
    /* Glider, top-left, heading down-right. */
    set(1, 0); set(2, 1); set(0, 2); set(1, 2); set(2, 2);
    /* R-pentomino, right of centre. */
    set(21, 6); set(22, 6); set(20, 7); set(21, 7); set(21, 8);

    /* Generations 0..4 always (or fewer if asked), then the final one if later. */
    long shown = gens < 4 ? gens : 4;
    for (long g = 0; g <= gens; g++) {
        if (g <= shown || g == gens)
            show(g);
        if (g < gens)
            step();
    }
    return 0;
}
