/* checks octal and hex escape sequences in characters and strings */
#include <stdio.h>
#include <string.h>
int main(void)
{
    printf("%d %d %d %d %d\n", '\101', '\0', '\7', '\x41', '\x7f');
    const char *s = "\x48\151\x21";
    printf("%s %d\n", s, (int)strlen(s));
    const char *t = "\1234";
    printf("%d %d %d\n", t[0], t[1], (int)strlen(t));
    unsigned char u = '\377';
    printf("%d\n", u);
    return 0;
}
