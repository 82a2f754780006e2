/* checks limits.h constants for LP64 */
#include <stdio.h>
#include <limits.h>
int main(void)
{
    printf("%d %d %u\n", INT_MIN, INT_MAX, UINT_MAX);
    printf("%ld %ld %lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
    printf("%lld %lld %llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    printf("%d %d %d %d %d\n", SCHAR_MIN, SCHAR_MAX, UCHAR_MAX, SHRT_MIN, USHRT_MAX);
    printf("%d\n", CHAR_BIT);
    return 0;
}
