/* checks modifying a char array copy of a literal (uppercasing in place) */
#include <stdio.h>
int main(void)
{
    char s[] = "Hello, World 42!";
    for (char *p = s; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = *p - 'a' + 'A';
    printf("%s\n", s);
    return 0;
}
