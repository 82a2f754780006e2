/* checks escapes inside string literals reach printf output */
#include <stdio.h>
int main(void)
{
    const char *s = "a\tb\\c\"d\'e";
    printf("tab:\t|quote:\"|backslash:\\|apos:\'|q\?\n");
    printf("two\nlines\n");
    printf("%s\n", "percent %% stays in arg");
    printf("%s %d\n", s, s[1]);
    return 0;
}
