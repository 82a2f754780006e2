/* printf formats: widths, precision, flags, lengths, %n, snprintf truncation. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

int main(void)
{
    printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d]\n", 42, 42, 42, 42, 42, 42);
    printf("[%x] [%X] [%#x] [%o] [%#o] [%08x]\n", 48879, 48879, 48879, 8, 8, 0xbeef);
    printf("[%ld] [%lu] [%lld] [%llu]\n", LONG_MIN, ULONG_MAX, LLONG_MIN, ULLONG_MAX);
    printf("[%hd] [%hu] [%hhd] [%hhu]\n", (short)-2, (unsigned short)65535, (signed char)-1, (unsigned char)255);
    printf("[%zu] [%ld] [%jd] [%td]\n", (size_t)123, (long)-123, (intmax_t)-9, (ptrdiff_t)77);
    printf("[%s] [%10s] [%-10s] [%.3s] [%*d] [%-*d|]\n", "str", "right", "left", "truncate", 6, 7, 4, 8);
    printf("[%c] [%%] [%5c] [%.0d] [%.5d] [%8.3d]\n", 'z', 'y', 0, 42, -42);
    int n1 = 0, n2 = 0;
    printf("abc%nde%n\n", &n1, &n2);
    printf("n1=%d n2=%d\n", n1, n2);
    char buf[10];
    int r = snprintf(buf, sizeof buf, "%s-%d", "overflowing", 12345);
    printf("snprintf r=%d buf=%s\n", r, buf);
    r = snprintf(buf, 1, "xyz");
    printf("snprintf(1) r=%d len0=%d\n", r, buf[0] == 0);
    for (int i = -3; i <= 3; i++) printf("%3d:%-3x|", i * 1000, (unsigned)(i * 1000) & 0xfff);
    printf("\n");
    return 0;
}
