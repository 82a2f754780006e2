/* checks a string literal with an embedded NUL keeps its full size */
#include <stdio.h>
#include <string.h>
int main(void)
{
    char s[] = "ab\0cd";
    printf("%d %d %c%c\n", (int)sizeof s, (int)strlen(s), s[3], s[4]);
    printf("%s|%s\n", s, s + 3);
    return 0;
}
