/* checks char arrays initialised from string literals, exact and padded sizes */
#include <stdio.h>
int main(void)
{
    char a[10] = "abc";
    char b[3] = "xyz";
    char c[] = { 'h', 'i', '\0' };
    int zeros = 0;
    for (int i = 3; i < 10; i++)
        zeros += a[i] == 0;
    printf("%s %d %c%c%c %s %d\n", a, zeros, b[0], b[1], b[2], c, (int)sizeof b);
    return 0;
}
