/* checks memcpy, memmove, memset and memcmp from string.h */
#include <stdio.h>
#include <string.h>
int main(void)
{
    int a[6] = { 1, 2, 3, 4, 5, 6 }, b[6];
    memcpy(b, a, sizeof a);
    memmove(a + 1, a, 4 * sizeof a[0]);
    char s[10];
    memset(s, 'x', 9);
    s[9] = '\0';
    memset(s, '-', 3);
    printf("%d %d %d %d %d %d | %d\n", a[0], a[1], a[2], a[3], a[4], a[5], b[5]);
    printf("%s %d %d\n", s, memcmp(a, b, sizeof a) != 0, memcmp(b, b, sizeof b));
    return 0;
}
