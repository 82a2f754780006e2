/* Top-down merge sort (stable) on records, bottom-up merge sort on longs, insertion sort check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item { int key; int seq; };

static void msort(struct item *a, struct item *tmp, int n)
{
    if (n < 2) return;
    int h = n / 2;
    msort(a, tmp, h);
    msort(a + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

static void bottom_up(long *a, long *b, int n)
{
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) b[k++] = a[j] < a[i] ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        long *t = a; a = b; b = t;
        memcpy(b, a, n * sizeof *a);
    }
}

int main(void)
{
    enum { N = 500 };
    struct item *a = malloc(N * sizeof *a), *tmp = malloc(N * sizeof *a);
    unsigned s = 7;
    for (int i = 0; i < N; i++) { s = s * 69069 + 1; a[i].key = (int)(s >> 24) % 50; a[i].seq = i; }
    msort(a, tmp, N);
    int stable = 1, sorted = 1;
    unsigned long h = 0;
    for (int i = 1; i < N; i++) {
        if (a[i - 1].key > a[i].key) sorted = 0;
        if (a[i - 1].key == a[i].key && a[i - 1].seq > a[i].seq) stable = 0;
        h = h * 1000003 + a[i].key * 1000 + a[i].seq;
    }
    printf("records: sorted=%d stable=%d h=%lx first=%d/%d last=%d/%d\n", sorted, stable, h,
           a[0].key, a[0].seq, a[N - 1].key, a[N - 1].seq);
    long *v = malloc(N * sizeof *v), *w = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++) { s = s * 69069 + 1; v[i] = (long)s * ((i & 1) ? -1 : 1); }
    bottom_up(v, w, N);
    long sum = 0;
    int ok = 1;
    for (int i = 0; i < N; i++) { sum += v[i] % 1000; if (i && v[i - 1] > v[i]) ok = 0; }
    printf("longs: sorted=%d min=%ld max=%ld sum=%ld\n", ok, v[0], v[N - 1], sum);
    for (int i = 0; i < 10; i++) printf("%ld ", v[i * 50]);
    printf("\n");
    return 0;
}
