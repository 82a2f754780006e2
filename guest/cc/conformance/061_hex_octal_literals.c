/* checks decimal, octal and hex integer literals with suffixes and their types */
#include <stdio.h>
int main(void)
{
    printf("%d %d %d %d\n", 0x1F, 017, 0, 0XaB);
    printf("%u %ld %lu %llu\n", 10u, 10L, 10UL, 10ULL);
    printf("%d %d %d\n", (int)sizeof 0xFFFFFFFF, (int)sizeof 2147483648, (int)sizeof 10LL);
    printf("%ld\n", 0x7FFFFFFFFFFFFFFF);
    return 0;
}
