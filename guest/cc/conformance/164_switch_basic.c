/* checks switch with cases, default and break */
#include <stdio.h>
static const char *name(int d)
{
    switch (d) {
    case 0:
        return "zero";
    case 1:
        return "one";
    case -1:
        return "minus";
    case 1000000:
        return "million";
    default:
        return "other";
    }
}
int main(void)
{
    printf("%s %s %s %s %s\n", name(0), name(1), name(-1), name(1000000), name(5));
    return 0;
}
