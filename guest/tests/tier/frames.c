/* frames.c: memory accesses that translated code groups under one address translation (a
 * frame's saves and restores through SP, a node's fields through its pointer), placed so that
 * some groups straddle a page boundary (each access then translates its own address) and one
 * member loads the base register the group shares. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    uint64_t a;
    uint32_t b, c;
    struct node *next;
};

/* Frames at every 16-byte step of the stack (the pad moves each call's frame), so some
 * prologue groups cross a page. */
__attribute__((noinline)) static uint64_t deep(int depth, int pad, uint64_t acc)
{
    volatile char *room = __builtin_alloca(pad);
    room[0] = (char)depth;
    room[pad - 1] = (char)(acc >> 3);
    if (depth == 0)
        return acc + room[0] + room[pad - 1];
    uint64_t x = acc * 6364136223846793005ull + (uint64_t)depth;
    return deep(depth - 1, pad, x) ^ (x >> 7) ^ (uint64_t)room[0] ^ (uint64_t)room[pad - 1];
}

/* a and b,c loaded together, then next into the same register: the group's last member
 * writes its base. */
__attribute__((noinline)) static uint64_t walk(const struct node *p)
{
    uint64_t s = 0;
    while (p) {
        s += p->a * 3 + p->b - p->c;
        p = p->next;
    }
    return s;
}

/* The pointer loaded and used again in one block: the access after the load is not in the
 * group before it. */
__attribute__((noinline)) static uint64_t hop(const struct node *p, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++) {
        s += p->a;
        p = p->next;
        s ^= p->b;
    }
    return s;
}

int main(void)
{
    uint64_t h = 0;
    for (int pad = 16; pad <= 4096 + 64; pad += 16)
        h = h * 31 + deep(40, pad, (uint64_t)pad);
    printf("deep %016llx\n", (unsigned long long)h);

    /* Nodes at every 8-byte offset across pages: 24-byte nodes in a buffer 8-aligned but not
     * page-aligned, so some straddle a page. */
    enum { N = 3000 };
    char *raw = malloc(N * sizeof(struct node) + 4096);
    struct node *v = (struct node *)(((uintptr_t)raw + 4095) / 4096 * 4096 + 8);
    for (int i = 0; i < N; i++) {
        v[i].a = (uint64_t)i * 2654435761u;
        v[i].b = (uint32_t)i ^ 0x5a5a;
        v[i].c = (uint32_t)i * 7;
        v[i].next = i + 1 < N ? &v[i + 1] : 0;
    }
    v[N - 1].next = &v[0];
    uint64_t r = 0;
    for (int k = 0; k < 20; k++)
        r = r * 5 + hop(&v[k], N + k);
    printf("hop %016llx\n", (unsigned long long)r);
    v[N - 1].next = 0;
    uint64_t w = 0;
    for (int k = 0; k < 40; k++) {
        v[k * 61 % N].a += (uint64_t)k; /* each pass walks changed nodes */
        w = w * 3 + walk(v);
    }
    printf("walk %016llx\n", (unsigned long long)w);
    free(raw);
    return 0;
}
