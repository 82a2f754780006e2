/* qsort with several comparators (ints, strings, structs by two keys) and bsearch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int up(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int down(const void *a, const void *b) { return up(b, a); }
static int by_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
struct rec { int key; int tie; char name[8]; };
static int by_rec(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->tie - y->tie;
}

static unsigned rng = 12345;
static unsigned next(void) { rng = rng * 1103515245u + 12345u; return rng >> 8; }

int main(void)
{
    int v[300];
    for (int i = 0; i < 300; i++) v[i] = (int)(next() % 2001) - 1000;
    qsort(v, 300, sizeof v[0], up);
    int ok = 1;
    long h = 0;
    for (int i = 0; i < 300; i++) { if (i && v[i - 1] > v[i]) ok = 0; h = h * 31 + v[i]; }
    printf("ascending ok=%d min=%d max=%d median=%d h=%ld\n", ok, v[0], v[299], v[150], h);
    int key = v[77], *f = bsearch(&key, v, 300, sizeof v[0], up);
    printf("bsearch %d found=%d value=%d\n", key, f != 0, f ? *f : 0);
    key = 5000;
    printf("bsearch 5000 found=%d\n", bsearch(&key, v, 300, sizeof v[0], up) != 0);
    qsort(v, 300, sizeof v[0], down);
    printf("descending first=%d last=%d\n", v[0], v[299]);
    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "apple", "date", "elderberry", "grape", "kiwi", "Zebra", "zebra"};
    qsort(words, 12, sizeof words[0], by_str);
    for (int i = 0; i < 12; i++) printf("%s%c", words[i], i == 11 ? '\n' : ' ');
    struct rec r[40];
    for (int i = 0; i < 40; i++) { r[i].key = (int)(next() % 7); r[i].tie = 40 - i; snprintf(r[i].name, 8, "r%02d", i); }
    qsort(r, 40, sizeof r[0], by_rec);
    for (int i = 0; i < 40; i++) printf("%d/%d/%s%c", r[i].key, r[i].tie, r[i].name, i % 10 == 9 ? '\n' : ' ');
    return 0;
}
