/* checks character constants and their int values */
#include <stdio.h>
int main(void)
{
    printf("%d %d %d %d %d\n", 'a', 'Z', '0', ' ', '~');
    printf("%d %d\n", (int)sizeof 'a', 'a' + 1);
    char c = 'm';
    printf("%c%c%c\n", c, c - 1, c + 1);
    return 0;
}
