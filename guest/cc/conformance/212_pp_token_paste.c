/* checks the ## token pasting operator building identifiers and numbers */
#include <stdio.h>
#define CAT(a, b) a##b
#define MAKE_GETTER(name) static int get_##name(void) { return name; }
static int alpha = 5, beta = 7;
MAKE_GETTER(alpha)
MAKE_GETTER(beta)
int main(void)
{
    int xy = 12;
    printf("%d %d %d %d\n", CAT(x, y), CAT(1, 23), get_alpha(), get_beta());
    return 0;
}
