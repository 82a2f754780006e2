/* checks strlen, strcmp, strncmp, strcpy, strcat and strchr from string.h */
#include <stdio.h>
#include <string.h>
int main(void)
{
    char buf[32];
    strcpy(buf, "foo");
    strcat(buf, "bar");
    printf("%s %d\n", buf, (int)strlen(buf));
    printf("%d %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strcmp(buf, "foobar"),
           strncmp("abcX", "abcY", 3));
    char *p = strchr(buf, 'b');
    printf("%s %d %d\n", p, (int)(p - buf), strchr(buf, 'z') == NULL);
    printf("%s\n", strrchr(buf, 'o'));
    return 0;
}
