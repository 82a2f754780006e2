/* checks for loops with omitted clauses */
#include <stdio.h>
int main(void)
{
    int i = 0, s = 0;
    for (; i < 5;)
        s += i++;
    for (;;) {
        if (s > 100)
            break;
        s *= 2;
    }
    int k;
    for (k = 10; k; k--)
        ;
    printf("%d %d %d\n", i, s, k);
    return 0;
}
