/* checks a large (200 KB) local array on the stack */
#include <stdio.h>
int main(void)
{
    int big[50000];
    for (int i = 0; i < 50000; i++)
        big[i] = i % 97;
    long s = 0;
    for (int i = 0; i < 50000; i++)
        s += big[i];
    printf("%ld %d\n", s, big[49999]);
    return 0;
}
