/* checks snprintf formatting into a buffer, truncation and return value */
#include <stdio.h>
#include <string.h>
int main(void)
{
    char buf[16];
    int n = snprintf(buf, sizeof buf, "%d-%s-%x", 123, "ab", 0xbeef);
    printf("%s %d\n", buf, n);
    n = snprintf(buf, 8, "%s", "truncate me please");
    printf("%s %d %d\n", buf, n, (int)strlen(buf));
    n = snprintf(NULL, 0, "%ld", -1234567890123L);
    printf("%d\n", n);
    return 0;
}
