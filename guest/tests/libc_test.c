/* libc_test.c: runtime self-test whose qemu output must equal the same file built with host gcc/glibc. */
#pragma GCC diagnostic ignored "-Wformat"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

struct rec { int key; char pad[9]; };  /* odd size exercises the byte-swap path */
static int cmp_rec(const void *a, const void *b)
{
    return cmp_int(&((const struct rec *)a)->key, &((const struct rec *)b)->key);
}

static void test_strto(const char *s, int base)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, base);
    int e1 = errno;
    errno = 0;
    unsigned long u = strtoul(s, &end, base);
    int e2 = errno;
    printf("strtol(\"%s\",%d)=%ld e=%d end=%ld | strtoul=%lu e=%d\n", s, base, v, e1,
           (long)(end - s), u, e2);
}

int main(void)
{
    /* rand: must match glibc's sequences */
    printf("rand default:");
    for (int i = 0; i < 5; i++)
        printf(" %d", rand());
    srand(1);
    printf("\nrand srand(1):");
    for (int i = 0; i < 5; i++)
        printf(" %d", rand());
    srand(42);
    printf("\nrand srand(42):");
    for (int i = 0; i < 5; i++)
        printf(" %d", rand());
    srand(0);
    printf("\nrand srand(0):");
    for (int i = 0; i < 3; i++)
        printf(" %d", rand());
    srand(0xdeadbeefu);
    printf("\nrand srand(0xdeadbeef):");
    for (int i = 0; i < 3; i++)
        printf(" %d", rand());
    printf("\n");

    /* strto* */
    const char *cases[] = {"0", "42", "  -42xyz", "+17", "0x1f", "0X", "0x", "017", "09",
                           "z", "", "  ", "-", "9223372036854775807", "9223372036854775808",
                           "-9223372036854775808", "-9223372036854775809",
                           "18446744073709551615", "18446744073709551616", "-1",
                           "99999999999999999999999", "\t\n 123 ", "1010"};
    int bases[] = {0, 10, 16, 2, 36};
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++)
        for (unsigned b = 0; b < sizeof bases / sizeof *bases; b++)
            test_strto(cases[i], bases[b]);
    printf("atoi %d %d %ld %lld\n", atoi("  -123abc"), atoi("x"), atol("987654321012"),
           atoll("-5"));

    /* qsort / bsearch */
    static int a[2000];
    srand(7);
    for (size_t n = 0; n <= 2000; n = n ? n * 3 : 1) {
        for (size_t i = 0; i < n; i++)
            a[i] = rand() % (n / 4 + 1);  /* many duplicates */
        qsort(a, n, sizeof *a, cmp_int);
        unsigned long h = 0;
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            h = h * 31 + (unsigned)a[i];
            if (i && a[i - 1] > a[i])
                ok = 0;
        }
        int key = n ? a[n / 2] : 0;
        int *f = bsearch(&key, a, n, sizeof *a, cmp_int);
        printf("qsort n=%zu sorted=%d hash=%lu found=%d\n", n, ok, h, f ? *f == key : -1);
    }
    for (size_t i = 0; i < 2000; i++)
        a[i] = (int)(2000 - i);  /* reverse order */
    qsort(a, 2000, sizeof *a, cmp_int);
    printf("reverse sorted first=%d last=%d\n", a[0], a[1999]);
    for (size_t i = 0; i < 2000; i++)
        a[i] = 5;
    qsort(a, 2000, sizeof *a, cmp_int);
    printf("all-equal ok=%d\n", a[0] == 5 && a[1999] == 5);
    static struct rec r[300];
    for (int i = 0; i < 300; i++) {
        r[i].key = (i * 7919) % 300;
        memset(r[i].pad, r[i].key & 0x7f, sizeof r[i].pad);
    }
    qsort(r, 300, sizeof *r, cmp_rec);
    int rok = 1;
    for (int i = 0; i < 300; i++)
        if (r[i].key != i || r[i].pad[8] != (i & 0x7f))
            rok = 0;
    printf("struct qsort ok=%d\n", rok);

    /* malloc stress with content verification */
    enum { SLOTS = 256 };
    static unsigned char *slot[SLOTS];
    static size_t len[SLOTS];
    srand(3);
    unsigned long bad = 0, total = 0;
    for (int it = 0; it < 2000; it++) {
        int s = rand() % SLOTS;
        if (slot[s]) {
            for (size_t i = 0; i < len[s]; i++)
                if (slot[s][i] != (unsigned char)(s + i))
                    bad++;
            if ((uintptr_t)slot[s] & 15)
                bad++;
            if (rand() % 3 == 0) {
                size_t nl = (size_t)(rand() % 3000);
                unsigned char *p = realloc(slot[s], nl);
                if (nl && !p) { bad++; continue; }
                size_t keep = nl < len[s] ? nl : len[s];
                for (size_t i = 0; i < keep; i++)
                    if (p[i] != (unsigned char)(s + i))
                        bad++;
                for (size_t i = keep; i < nl; i++)
                    p[i] = (unsigned char)(s + i);
                slot[s] = nl ? p : NULL;
                len[s] = nl;
            } else {
                free(slot[s]);
                slot[s] = NULL;
            }
        } else {
            size_t n = (size_t)(rand() % 4 == 0 ? rand() % 7000 : rand() % 200);
            slot[s] = rand() % 5 == 0 ? calloc(1, n) : malloc(n);
            if (!slot[s]) { bad++; continue; }
            if (n && slot[s][0] != 0 && 0) bad++;
            for (size_t i = 0; i < n; i++)
                slot[s][i] = (unsigned char)(s + i);
            len[s] = n;
            total += n;
        }
    }
    for (int s = 0; s < SLOTS; s++)
        free(slot[s]);
    unsigned char *z = calloc(100, 1000);
    unsigned long nz = 0;
    for (int i = 0; i < 100000; i++)
        nz += z[i] != 0;
    free(z);
    errno = 0;
    void *huge = malloc((size_t)-64);
    void *ovf = calloc(SIZE_MAX / 2, 3);
    printf("malloc stress bad=%lu total=%lu calloc-nonzero=%lu huge=%d ovf=%d errno=%d\n", bad,
           total, nz, huge == NULL, ovf == NULL, errno);

    /* strings */
    char buf[64], *save;
    strcpy(buf, "hello");
    strcat(buf, ", world");
    strncat(buf, "!!!", 1);
    printf("%s len=%zu nlen=%zu\n", buf, strlen(buf), strnlen(buf, 3));
    printf("cmp %d %d %d %d %d\n", strcmp("a", "b") < 0, strcmp("b", "a") > 0, strcmp("x", "x"),
           strncmp("abcX", "abcY", 3), strcmp("\xff", "a") > 0);
    printf("case %d %d %d\n", strcasecmp("HeLLo", "hello"), strncasecmp("ABCd", "abce", 3),
           strcasecmp("a", "B") < 0);
    printf("chr [%s] [%s] [%s] [%d]\n", strchr(buf, 'o'), strrchr(buf, 'o'), strstr(buf, "wor"),
           strchr(buf, 'q') == NULL);
    printf("chr0 %d %d\n", strchr(buf, 0) == buf + strlen(buf), strstr(buf, "") == buf);
    printf("spn %zu %zu [%s]\n", strspn("aabbcd", "ab"), strcspn("xyz:abc", ":"),
           strpbrk("hello world", "ow"));
    char tok[] = "  one, two,,three ;four";
    for (char *t = strtok(tok, " ,;"); t; t = strtok(NULL, " ,;"))
        printf("tok[%s]", t);
    char tok2[] = "a:b::c";
    for (char *t = strtok_r(tok2, ":", &save); t; t = strtok_r(NULL, ":", &save))
        printf(" r[%s]", t);
    printf("\n");
    char *d = strdup("duplicate"), *dn = strndup("duplicate", 3);
    printf("dup [%s] [%s]\n", d, dn);
    free(d);
    free(dn);
    memset(buf, 0, sizeof buf);
    strncpy(buf, "abc", 6);
    printf("strncpy %d%d%d\n", buf[3], buf[4], buf[5]);
    char mv[] = "0123456789";
    memmove(mv + 2, mv, 6);
    printf("memmove1 %s\n", mv);
    memmove(mv, mv + 3, 5);
    printf("memmove2 %s\n", mv);
    static char big[300];
    for (int i = 0; i < 300; i++) big[i] = (char)('a' + i % 26);
    memmove(big + 13, big + 1, 250);
    memmove(big + 2, big + 40, 200);
    unsigned long bh = 0;
    for (int i = 0; i < 300; i++) bh = bh * 33 + (unsigned char)big[i];
    printf("memmove big %lu memcmp %d %d %d\n", bh, memcmp("abc", "abd", 3) < 0,
           memcmp("abc", "abc", 3), memcmp("\x80", "\x01", 1) > 0);
    printf("memchr %d\n", (int)((char *)memchr("abcdef", 'd', 6) - "abcdef"));
    printf("strerror [%s] [%s] [%s]\n", strerror(ENOENT), strerror(EINVAL), strerror(ENOMEM));

    /* ctype over 0..127 and EOF */
    int (*fns[])(int) = {isalpha, isdigit, isalnum, isspace, isupper, islower,
                         isprint, ispunct, isxdigit, iscntrl, isgraph};
    for (unsigned f = 0; f < sizeof fns / sizeof *fns; f++) {
        unsigned long h = 0;
        for (int c = -1; c < 256; c++)
            h = h * 3 + (fns[f](c) != 0);
        printf("ctype%u %lu\n", f, h);
    }
    unsigned long th = 0;
    for (int c = -1; c < 256; c++)
        th = th * 7 + (unsigned)toupper(c) * 3 + (unsigned)tolower(c);
    printf("toupper/tolower %lu\n", th);

    printf("abs %d %ld %lld div %d %d ldiv %ld %ld\n", abs(-5), labs(-6L), llabs(-7LL),
           div(-7, 2).quot, div(-7, 2).rem, ldiv(100, 7).quot, ldiv(100, 7).rem);
    printf("getenv HOME set=%d NOPE=%p\n", getenv("PATH") != NULL, getenv("GARM_NO_SUCH_VAR"));
    return 0;
}
