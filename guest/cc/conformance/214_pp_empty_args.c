/* checks function-like macros invoked with empty arguments (C99) */
#include <stdio.h>
#define PAIR(a, b) a b
#define WRAP(x) [x]
#define STR(x) #x
int main(void)
{
    int v = PAIR(, 5);
    int w = PAIR(6, );
    printf("%d %d %s %s\n", v, w, STR(), STR(WRAP()));
    return 0;
}
