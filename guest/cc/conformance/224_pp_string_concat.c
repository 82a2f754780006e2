/* checks adjacent string literal concatenation, including from macros */
#include <stdio.h>
#include <string.h>
#define NAME "garm"
#define VER "1"
int main(void)
{
    const char *s = "hello, " NAME " v" VER "!";
    char a[] = "ab" "cd" "";
    printf("%s %d %s %d\n", s, (int)strlen(s), a, (int)sizeof a);
    return 0;
}
