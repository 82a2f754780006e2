/* checks function-like macros with parenthesised parameters and multiple evaluation */
#include <stdio.h>
#define SQ(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define BAD_SQ(x) x * x
#define NOARGS() 77
int main(void)
{
    int i = 3;
    int m = MAX(i++, 2);
    printf("%d %d %d %d %d\n", SQ(2 + 3), BAD_SQ(2 + 3), m, i, NOARGS());
    return 0;
}
