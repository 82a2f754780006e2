/* stdlib.c: number parsing, getenv, abs/div, bsearch, qsort and glibc-compatible rand. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/* A digit's value in bases up to 36 (99 for anything else); scanf.c shares it. */
int __garm_digit_value(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

/* Shared strto* core: magnitude in *mag, sign in *neg; returns 0 on success,
 * 1 if the magnitude overflowed 64 bits, -1 for an invalid base. */
static int parse(const char *s, char **end, int base, unsigned long long *mag, int *neg)
{
    const char *p = s;
    *mag = 0;
    *neg = 0;
    if (base < 0 || base == 1 || base > 36) {
        if (end)
            *end = (char *)s;
        return -1;
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '+' || *p == '-')
        *neg = *p++ == '-';
    /* "0x" is a prefix only when a hex digit follows; otherwise the 0 is the number. */
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] | 32) == 'x' && __garm_digit_value(p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    const char *digits = p;
    unsigned long long v = 0;
    int ovf = 0;
    for (int d; (d = __garm_digit_value(*p)) < base; p++) {
        if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
            ovf = 1;
        else
            v = v * (unsigned)base + (unsigned)d;
    }
    if (end)
        *end = (char *)(p == digits ? s : p);
    *mag = v;
    return ovf;
}

unsigned long long strtoull(const char *restrict s, char **restrict end, int base)
{
    unsigned long long m;
    int neg, r = parse(s, end, base, &m, &neg);
    if (r < 0) {
        errno = EINVAL;
        return 0;
    }
    if (r > 0) {
        errno = ERANGE;
        return ULLONG_MAX;
    }
    return neg ? -m : m;  /* C says "-1" converts to ULLONG_MAX, and so on */
}

long long strtoll(const char *restrict s, char **restrict end, int base)
{
    unsigned long long m;
    int neg, r = parse(s, end, base, &m, &neg);
    if (r < 0) {
        errno = EINVAL;
        return 0;
    }
    if (neg) {
        if (r > 0 || m > (unsigned long long)LLONG_MAX + 1) {
            errno = ERANGE;
            return LLONG_MIN;
        }
        return (long long)-m;
    }
    if (r > 0 || m > (unsigned long long)LLONG_MAX) {
        errno = ERANGE;
        return LLONG_MAX;
    }
    return (long long)m;
}

/* long and long long are both 64-bit on LP64. */
long strtol(const char *restrict s, char **restrict end, int base) { return strtoll(s, end, base); }
unsigned long strtoul(const char *restrict s, char **restrict end, int base) { return strtoull(s, end, base); }
long long atoll(const char *s) { return strtoll(s, NULL, 10); }
long atol(const char *s) { return strtol(s, NULL, 10); }
int atoi(const char *s) { return (int)strtol(s, NULL, 10); }

char *getenv(const char *name)
{
    size_t n = strlen(name);
    if (!environ || n == 0 || strchr(name, '='))
        return NULL;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }
div_t div(int a, int b) { return (div_t){a / b, a % b}; }
ldiv_t ldiv(long a, long b) { return (ldiv_t){a / b, a % b}; }
lldiv_t lldiv(long long a, long long b) { return (lldiv_t){a / b, a % b}; }

void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *))
{
    const char *lo = base;
    while (n > 0) {
        const char *mid = lo + (n / 2) * size;
        int c = cmp(key, mid);
        if (c == 0)
            return (void *)mid;
        if (c > 0) {
            lo = mid + size;
            n -= n / 2 + 1;
        } else {
            n /= 2;
        }
    }
    return NULL;
}

/* ---- qsort: introsort (median-of-3 quicksort, heapsort past a depth limit,
 * insertion sort for short runs). Not stable, like most qsorts. */

static void swap_bytes(char *a, char *b, size_t size)
{
    if (size == 8 && (((uintptr_t)a | (uintptr_t)b) & 7) == 0) {
        uint64_t t = *(uint64_t *)a;
        *(uint64_t *)a = *(uint64_t *)b;
        *(uint64_t *)b = t;
        return;
    }
    if (size == 4 && (((uintptr_t)a | (uintptr_t)b) & 3) == 0) {
        uint32_t t = *(uint32_t *)a;
        *(uint32_t *)a = *(uint32_t *)b;
        *(uint32_t *)b = t;
        return;
    }
    while (size--) {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    }
}

typedef int (*cmp_fn)(const void *, const void *);

static void insertion_sort(char *base, size_t n, size_t size, cmp_fn cmp)
{
    for (size_t i = 1; i < n; i++)
        for (char *p = base + i * size; p > base && cmp(p - size, p) > 0; p -= size)
            swap_bytes(p - size, p, size);
}

static void sift_down(char *base, size_t root, size_t n, size_t size, cmp_fn cmp)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0)
            child++;
        if (cmp(base + root * size, base + child * size) >= 0)
            return;
        swap_bytes(base + root * size, base + child * size, size);
        root = child;
    }
}

static void heap_sort(char *base, size_t n, size_t size, cmp_fn cmp)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(base, i, n, size, cmp);
    for (size_t end = n; end-- > 1;) {
        swap_bytes(base, base + end * size, size);
        sift_down(base, 0, end, size, cmp);
    }
}

static void intro_sort(char *base, size_t n, size_t size, cmp_fn cmp, int depth)
{
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort(base, n, size, cmp);
            return;
        }
        /* Median of three to the front, then Hoare partition around it. */
        char *a = base, *m = base + (n / 2) * size, *z = base + (n - 1) * size;
        if (cmp(m, a) < 0) swap_bytes(m, a, size);
        if (cmp(z, m) < 0) {
            swap_bytes(z, m, size);
            if (cmp(m, a) < 0) swap_bytes(m, a, size);
        }
        swap_bytes(base, m, size);  /* pivot lives at base[0] during partitioning */
        size_t i = 0, j = n;
        for (;;) {
            /* Stopping on equal keys keeps duplicates balanced across both sides. */
            do i++; while (i < n && cmp(base + i * size, base) < 0);
            do j--; while (cmp(base + j * size, base) > 0);
            if (i >= j)
                break;
            swap_bytes(base + i * size, base + j * size, size);
        }
        swap_bytes(base, base + j * size, size);
        /* Recurse into the smaller side, loop on the larger: O(log n) stack. */
        size_t left = j, right = n - j - 1;
        if (left < right) {
            intro_sort(base, left, size, cmp, depth);
            base += (j + 1) * size;
            n = right;
        } else {
            intro_sort(base + (j + 1) * size, right, size, cmp, depth);
            n = left;
        }
    }
    insertion_sort(base, n, size, cmp);
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n < 2 || size == 0)
        return;
    int depth = 0;
    for (size_t k = n; k; k >>= 1)
        depth += 2;
    intro_sort(base, n, size, cmp, depth);
}

/* ---- rand: glibc's TYPE_3 additive feedback generator (x[i] = x[i-3] + x[i-31]),
 * seeded the same way, so sequences match glibc's rand(). */

static int32_t rstate[31];
static int rf = 3, rr = 0;  /* front/rear indices, 3 apart mod 31 */
static int seeded;

void srand(unsigned seed)
{
    int32_t word = seed == 0 ? 1 : (int32_t)seed;
    rstate[0] = word;
    for (int i = 1; i < 31; i++) {
        /* 16807 * word mod (2^31 - 1) via Schrage's method, as glibc does. */
        long hi = word / 127773, lo = word % 127773;
        word = (int32_t)(16807 * lo - 2836 * hi);
        if (word < 0)
            word += 2147483647;
        rstate[i] = word;
    }
    rf = 3;
    rr = 0;
    seeded = 1;
    for (int i = 0; i < 310; i++)
        (void)rand();
}

int rand(void)
{
    if (!seeded)
        srand(1);
    uint32_t v = (uint32_t)rstate[rf] + (uint32_t)rstate[rr];
    rstate[rf] = (int32_t)v;
    if (++rf >= 31) rf = 0;
    if (++rr >= 31) rr = 0;
    return (int)(v >> 1);
}
