/* checks a hand-written strcmp and string reversal via pointers */
#include <stdio.h>
static int my_cmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}
static void rev(char *s)
{
    char *e = s;
    while (*e)
        e++;
    while (s < --e) {
        char t = *s;
        *s++ = *e;
        *e = t;
    }
}
int main(void)
{
    char w[] = "stressed";
    rev(w);
    printf("%s %d %d %d\n", w, my_cmp("abc", "abc"), my_cmp("abc", "abd") < 0, my_cmp("b", "") > 0);
    return 0;
}
