/* Singly linked lists: build, reverse, merge-sort, remove by predicate, checksum. */
#include <stdio.h>
#include <stdlib.h>

struct node { int v; struct node *next; };

static struct node *push(struct node *h, int v) { struct node *n = malloc(sizeof *n); n->v = v; n->next = h; return n; }

static struct node *reverse(struct node *h)
{
    struct node *r = 0;
    while (h) { struct node *n = h->next; h->next = r; r = h; h = n; }
    return r;
}

static struct node *merge(struct node *a, struct node *b)
{
    struct node head, *t = &head;
    while (a && b) { if (b->v < a->v) { t->next = b; b = b->next; } else { t->next = a; a = a->next; } t = t->next; }
    t->next = a ? a : b;
    return head.next;
}

static struct node *sort(struct node *h)
{
    if (!h || !h->next) return h;
    struct node *slow = h, *fast = h->next;
    while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
    struct node *b = slow->next;
    slow->next = 0;
    return merge(sort(h), sort(b));
}

static void show(const char *what, struct node *h)
{
    int n = 0;
    long s = 0;
    printf("%s:", what);
    for (; h; h = h->next, n++) { s = s * 7 + h->v; if (n < 12) printf(" %d", h->v); }
    printf("%s (n=%d, sum %ld)\n", n > 12 ? " ..." : "", n, s);
}

int main(void)
{
    struct node *h = 0;
    unsigned x = 1;
    for (int i = 0; i < 400; i++) { x = x * 1664525u + 1013904223u; h = push(h, (int)(x >> 20) - 2048); }
    show("built", h);
    h = reverse(h);
    show("reversed", h);
    h = sort(h);
    show("sorted", h);
    struct node **pp = &h;
    while (*pp) { if ((*pp)->v % 3 == 0) { struct node *d = *pp; *pp = d->next; free(d); } else pp = &(*pp)->next; }
    show("no multiples of 3", h);
    return 0;
}
