/* checks # escapes quotes and backslashes inside string and char literal arguments */
#include <stdio.h>
#include <string.h>
#define STR(x) #x
int main(void)
{
    const char *a = STR("a\n");
    const char *b = STR('\'');
    printf("%s %d | %s %d\n", a, (int)strlen(a), b, (int)strlen(b));
    return 0;
}
