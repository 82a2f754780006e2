/* strtol/strtoul/strtoll/atoi on edge inputs: bases, signs, overflow (errno), end pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>

int main(void)
{
    const char *in[] = {"0", "42", "-42", "  +17xyz", "0x1F", "0X7fffffffffffffff", "0777", "9223372036854775807",
                        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "z", "", "  -0x", "1010"};
    int bases[] = {10, 0, 16, 2, 36};
    for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {
        for (int b = 0; b < 5; b++) {
            char *end;
            errno = 0;
            long v = strtol(in[i], &end, bases[b]);
            printf("strtol(\"%s\",%d)=%ld end+%d errno=%d%s", in[i], bases[b], v, (int)(end - in[i]), errno, b == 4 ? "\n" : "  ");
        }
    }
    char *end;
    errno = 0;
    unsigned long u = strtoul("18446744073709551615", &end, 10);
    printf("strtoul max=%lu errno=%d\n", u, errno);
    errno = 0;
    u = strtoul("18446744073709551616", &end, 10);
    printf("strtoul over=%lu errno=%d\n", u, errno);
    printf("strtoul(-1)=%lu\n", strtoul("-1", &end, 10));
    printf("strtoll=%lld atoi=%d atol=%ld atoll=%lld\n", strtoll("-123456789012", 0, 10), atoi("  -2147483648"), atol("99999999999"), atoll("-7"));
    return 0;
}
