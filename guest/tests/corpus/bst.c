/* A binary search tree: insert, search, delete, in-order walk, height. */
#include <stdio.h>
#include <stdlib.h>

struct t { int k; struct t *l, *r; };

static struct t *ins(struct t *n, int k)
{
    if (!n) { n = calloc(1, sizeof *n); n->k = k; return n; }
    if (k < n->k) n->l = ins(n->l, k); else if (k > n->k) n->r = ins(n->r, k);
    return n;
}

static struct t *del(struct t *n, int k)
{
    if (!n) return 0;
    if (k < n->k) n->l = del(n->l, k);
    else if (k > n->k) n->r = del(n->r, k);
    else {
        if (!n->l || !n->r) { struct t *c = n->l ? n->l : n->r; free(n); return c; }
        struct t *m = n->r;
        while (m->l) m = m->l;
        n->k = m->k;
        n->r = del(n->r, m->k);
    }
    return n;
}

static int height(struct t *n) { if (!n) return 0; int a = height(n->l), b = height(n->r); return 1 + (a > b ? a : b); }
static int count;
static long digest;
static void walk(struct t *n) { if (!n) return; walk(n->l); count++; digest = digest * 31 + n->k; walk(n->r); }
static int has(struct t *n, int k) { while (n && n->k != k) n = k < n->k ? n->l : n->r; return n != 0; }

int main(void)
{
    struct t *root = 0;
    unsigned x = 99;
    for (int i = 0; i < 600; i++) { x = x * 1103515245u + 12345u; root = ins(root, (int)(x >> 16) % 1000); }
    count = 0; digest = 0; walk(root);
    printf("after insert: %d keys, height %d, digest %ld\n", count, height(root), digest);
    int found = 0;
    for (int k = 0; k < 1000; k += 7) found += has(root, k);
    printf("found %d of multiples of 7\n", found);
    for (int k = 0; k < 1000; k += 2) root = del(root, k);
    count = 0; digest = 0; walk(root);
    printf("after deleting evens: %d keys, height %d, digest %ld\n", count, height(root), digest);
    return 0;
}
