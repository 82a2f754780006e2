/* checks % and / by powers of two for negative signed values */
#include <stdio.h>
int main(void)
{
    int a = -13;
    long b = -1000001;
    printf("%d %d %d %d\n", a / 4, a % 4, a / 8, a % 8);
    printf("%ld %ld\n", b / 1024, b % 1024);
    return 0;
}
