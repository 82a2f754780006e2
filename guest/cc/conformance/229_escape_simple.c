/* checks simple escape sequences in character constants */
#include <stdio.h>
int main(void)
{
    char nl = '\n', bs = '\\';
    printf("%d %d %d %d %d %d\n", '\n', '\t', '\\', '\'', '\"', '\0');
    printf("%d %d %d %d %d %d\n", '\a', '\b', '\f', '\r', '\v', '\?');
    printf("%d %d %d\n", nl, bs, '"');
    return 0;
}
