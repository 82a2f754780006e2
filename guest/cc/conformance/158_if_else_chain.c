/* checks if / else if / else chains and dangling else binding */
#include <stdio.h>
static const char *classify(int n)
{
    if (n < 0)
        return "neg";
    else if (n == 0)
        return "zero";
    else if (n < 10)
        return "small";
    else
        return "big";
}
int main(void)
{
    printf("%s %s %s %s\n", classify(-5), classify(0), classify(7), classify(99));
    int a = 1, b = 0, r = 0;
    if (a)
        if (b)
            r = 1;
        else
            r = 2;
    printf("%d\n", r);
    return 0;
}
