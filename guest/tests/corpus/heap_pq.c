/* A binary-heap priority queue: Dijkstra's shortest paths on a generated grid graph. */
#include <stdio.h>
#include <stdint.h>

#define W 14
#define H 14
#define NV (W * H)
static int cost[NV], dist[NV], prev[NV];
static struct { int d, v; } heap[NV * 4];
static int hn;

static void hpush(int d, int v)
{
    int i = hn++;
    while (i && heap[(i - 1) / 2].d > d) { heap[i] = heap[(i - 1) / 2]; i = (i - 1) / 2; }
    heap[i].d = d; heap[i].v = v;
}

static void hpop(int *d, int *v)
{
    *d = heap[0].d; *v = heap[0].v;
    int ld = heap[--hn].d, lv = heap[hn].v, i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= hn) break;
        if (c + 1 < hn && heap[c + 1].d < heap[c].d) c++;
        if (heap[c].d >= ld) break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i].d = ld; heap[i].v = lv;
}

int main(void)
{
    uint32_t s = 42;
    for (int i = 0; i < NV; i++) { s = s * 1664525u + 1013904223u; cost[i] = 1 + (s >> 28); dist[i] = 1 << 30; prev[i] = -1; }
    dist[0] = 0;
    hpush(0, 0);
    int pops = 0;
    while (hn) {
        int d, v;
        hpop(&d, &v);
        pops++;
        if (d > dist[v]) continue;
        int x = v % W, y = v / W;
        int nb[4] = {x > 0 ? v - 1 : -1, x < W - 1 ? v + 1 : -1, y > 0 ? v - W : -1, y < H - 1 ? v + W : -1};
        for (int k = 0; k < 4; k++) {
            int u = nb[k];
            if (u >= 0 && d + cost[u] < dist[u]) { dist[u] = d + cost[u]; prev[u] = v; hpush(dist[u], u); }
        }
    }
    printf("pops %d, distance to far corner %d\n", pops, dist[NV - 1]);
    char grid[H][W + 1];
    for (int y = 0; y < H; y++) { for (int x = 0; x < W; x++) grid[y][x] = (char)('0' + cost[y * W + x] % 10); grid[y][W] = 0; }
    for (int v = NV - 1; v >= 0; v = prev[v]) grid[v / W][v % W] = '*';
    for (int y = 0; y < H; y++) printf("%s\n", grid[y]);
    long sum = 0;
    for (int i = 0; i < NV; i++) sum += dist[i];
    printf("sum of distances %ld\n", sum);
    return 0;
}
