/* checks switch on char values with no matching case and no default */
#include <stdio.h>
int main(void)
{
    const char *s = "a1b2-c3!";
    int letters = 0, digits = 0, other = 0;
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case 'a': case 'b': case 'c':
            letters++;
            break;
        case '0': case '1': case '2': case '3':
            digits++;
            break;
        case '-':
            other++;
        }
    }
    printf("%d %d %d\n", letters, digits, other);
    return 0;
}
