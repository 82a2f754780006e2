/* printf_fmt.c: format cases whose qemu output must equal the same file built with host gcc/glibc. */
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define T(...) do { n = printf(__VA_ARGS__); printf(" <%d>\n", n); } while (0)

int main(void)
{
    int n;
    char buf[64];

    /* %d / %i with flags, width, precision */
    T("[%d] [%i] [%d] [%d]", 0, 42, -42, INT_MIN);
    T("[%5d] [%-5d] [%05d] [%+d] [% d] [%+05d] [% 05d]", 42, 42, 42, 42, 42, 42, 42);
    T("[%5d] [%-5d] [%05d] [%+d] [% d] [%+5d] [%-+6d|]", -42, -42, -42, -42, -42, 7, 7);
    T("[%.3d] [%.0d] [%5.0d] [%-5.0d|] [%+.0d] [% .0d] [%08.3d] [%.5d]", 7, 0, 0, 0, 0, 0, 42, -42);
    T("[%*d] [%-*d] [%*d] [%.*d] [%.*d] [%*.*d]", 6, 1, 6, 2, -6, 3, 4, 5, -1, 6, 8, 3, 9);
    T("[%0-8d] [%-08d] [% +d] [%+ d]", 1, 2, 3, 4);
    /* length modifiers */
    T("[%hd] [%hhd] [%hu] [%hhu] [%hx] [%hhx]", 70000, 300, -1, -1, 0x12345, 0x1ff);
    T("[%ld] [%lld] [%lu] [%llu] [%lx] [%llX]", LONG_MIN, LLONG_MAX, ULONG_MAX, 12345678901234ULL,
      0xdeadbeefcafeUL, 0xabcdefULL);
    T("[%zu] [%zd] [%zx] [%jd] [%ju] [%td] [%tx]", (size_t)123, (ptrdiff_t)-5, (size_t)255,
      (intmax_t)-9, (uintmax_t)9, (ptrdiff_t)-77, (ptrdiff_t)4096);
    /* unsigned, hex, octal */
    T("[%u] [%u] [%x] [%X] [%o] [%#o] [%#x] [%#X]", 0, UINT_MAX, 0xbeef, 0xbeef, 8, 8, 255, 255);
    T("[%#x] [%#o] [%#.0o] [%#.0x] [%#5o] [%#08x] [%#-8x|] [%#.6x]", 0, 0, 0, 0, 9, 0x2a, 0x2a, 0x2a);
    T("[%.0u] [%.0x] [%.0o] [%5.3x] [%-5.3o|] [%08.3u] [%#10.4x]", 0, 0, 0, 15, 9, 5, 0x1f);
    T("[%+u] [% u] [%+x] [% x]", 5, 5, 5, 5);
    T("[%lo] [%llo] [%#llo]", ULONG_MAX, 01234567ULL, 0ULL);
    /* chars */
    T("[%c] [%3c] [%-3c|] [%c%c%c]", 'a', 'b', 'c', 'x', 'y', 'z');
    /* strings */
    T("[%s] [%10s] [%-10s|] [%.2s] [%10.3s] [%-10.3s|] [%.0s] [%.10s]", "hello", "hi", "hi",
      "hello", "hello", "hello", "hello", "hi");
    T("[%*s] [%-*s|] [%.*s] [%.*s]", 5, "ab", 5, "ab", 3, "abcdef", -1, "abcdef");
    T("[%s] [%10s] [%.3s] [%.6s] [%-8s|]", (char *)NULL, (char *)NULL, (char *)NULL, (char *)NULL,
      (char *)NULL);
    T("[%s]", "");
    /* pointers */
    T("[%p] [%p] [%20p] [%-20p|] [%p]", (void *)0x1234, (void *)NULL, (void *)0xabcdef,
      (void *)0xabcdef, (void *)UINTPTR_MAX);
    T("[%10p] [%-10p|]", (void *)NULL, (void *)NULL);
    /* percent and mixes */
    T("[%%] [%5%] [100%%]");
    T("%d%s%c%x%%%u", 1, "two", '3', 4, 5U);
    T("no conversions at all");
    T("%s=%d, %s=%ld", "a", 1, "b", -2L);

    /* snprintf truncation and return values */
    n = snprintf(buf, 8, "%s", "abcdefghijkl");
    printf("snprintf8 [%s] %d\n", buf, n);
    n = snprintf(buf, 1, "%d", 12345);
    printf("snprintf1 [%s] %d\n", buf, n);
    n = snprintf(NULL, 0, "%d-%s", 12345, "xyz");
    printf("snprintf0 %d\n", n);
    n = sprintf(buf, "%08.3x|%-4d|%s", 0xab, -1, "end");
    printf("sprintf [%s] %d\n", buf, n);
    memset(buf, 'Z', sizeof buf);
    n = snprintf(buf, 5, "%5d", 99);
    printf("snprintf5 [%s] %d [%c]\n", buf, n, buf[5]);

    /* sweep a range of widths/precisions against several values */
    static const long vals[] = {0, 1, -1, 9, 10, -10, 255, 65535, -2147483648L, 2147483647L};
    static const char *fmts[] = {"%*.*ld", "%-*.*ld", "%+*.*ld", "% *.*ld", "%0*ld", "%-0*ld",
                                 "%#*.*lx", "%#*.*lo", "%*.*lu", "%0*lX"};
    for (unsigned f = 0; f < sizeof fmts / sizeof *fmts; f++) {
        for (unsigned v = 0; v < sizeof vals / sizeof *vals; v++) {
            for (int w = 0; w < 14; w += 5) {
                for (int p = -1; p < 13; p += 4) {
                    if (strstr(fmts[f], ".*"))
                        n = printf(fmts[f], w, p, vals[v]);
                    else
                        n = printf(fmts[f], w, vals[v]);
                    printf("|%d\n", n);
                }
            }
        }
    }

    fputs("fputs line\n", stdout);
    puts("puts line");
    putchar('!');
    putchar('\n');
    fprintf(stdout, "fprintf %s %d\n", "stdout", 1);
    fwrite("fwrite\n", 1, 7, stdout);
    return 0;
}
