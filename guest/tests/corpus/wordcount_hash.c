/* Word counts in a chained hash table (FNV-1a), then the words sorted by count and name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

static const char *text =
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was the "
    "age of foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the "
    "season of Light, it was the season of Darkness, it was the spring of hope, it was the winter "
    "of despair, we had everything before us, we had nothing before us, we were all going direct "
    "to Heaven, we were all going direct the other way - in short, the period was so far like the "
    "present period, that some of its noisiest authorities insisted on its being received, for "
    "good or for evil, in the superlative degree of comparison only.";

struct entry { char *word; int count; struct entry *next; };
#define NB 64
static struct entry *buckets[NB];
static int nwords;

static unsigned fnv(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void add(const char *w)
{
    unsigned b = fnv(w) % NB;
    for (struct entry *e = buckets[b]; e; e = e->next)
        if (!strcmp(e->word, w)) { e->count++; return; }
    struct entry *e = malloc(sizeof *e);
    e->word = strdup(w);
    e->count = 1;
    e->next = buckets[b];
    buckets[b] = e;
    nwords++;
}

static int cmp(const void *a, const void *b)
{
    const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;
    if (x->count != y->count) return y->count - x->count;
    return strcmp(x->word, y->word);
}

int main(void)
{
    char w[64];
    int n = 0, total = 0;
    for (const char *p = text;; p++) {
        if (isalpha((unsigned char)*p)) { if (n < 63) w[n++] = (char)tolower((unsigned char)*p); }
        else if (n) { w[n] = 0; add(w); n = 0; total++; }
        if (!*p) break;
    }
    struct entry **all = malloc(nwords * sizeof *all);
    int k = 0, longest = 0;
    for (int b = 0; b < NB; b++) {
        int len = 0;
        for (struct entry *e = buckets[b]; e; e = e->next) { all[k++] = e; len++; }
        if (len > longest) longest = len;
    }
    qsort(all, nwords, sizeof *all, cmp);
    printf("%d words, %d distinct, longest chain %d\n", total, nwords, longest);
    for (int i = 0; i < nwords; i++)
        printf("%3d %s\n", all[i]->count, all[i]->word);
    return 0;
}
