/* checks enum constants with implicit and explicit values */
#include <stdio.h>
enum color { RED, GREEN, BLUE = 10, CYAN, MAGENTA = -3, YELLOW, LAST = BLUE + CYAN };
int main(void)
{
    enum color c = CYAN;
    printf("%d %d %d %d %d %d %d\n", RED, GREEN, BLUE, c, MAGENTA, YELLOW, LAST);
    printf("%d\n", (int)sizeof(enum color));
    return 0;
}
