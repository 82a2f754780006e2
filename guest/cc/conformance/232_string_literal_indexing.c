/* checks indexing, sizeof and pointer use of string literals */
#include <stdio.h>
int main(void)
{
    const char *s = "abcdef";
    printf("%c %c %d %d\n", s[0], "xyz"[2], (int)sizeof "abcdef", (int)sizeof s);
    int n = 0;
    while (s[n])
        n++;
    printf("%d %s\n", n, s + 3);
    return 0;
}
