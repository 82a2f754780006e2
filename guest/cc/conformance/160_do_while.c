/* checks do-while runs its body at least once and checks the condition after */
#include <stdio.h>
int main(void)
{
    int i = 10, runs = 0;
    do {
        runs++;
    } while (i < 5);
    unsigned n = 12345;
    int digits = 0;
    do {
        digits++;
        n /= 10;
    } while (n);
    printf("%d %d\n", runs, digits);
    return 0;
}
