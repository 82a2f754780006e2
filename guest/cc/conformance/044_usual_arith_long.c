/* checks int op long widens to long before the operation */
#include <stdio.h>
int main(void)
{
    int a = 2000000000;
    long b = 2;
    long r = a * b;
    long s = a + 2000000000L;
    unsigned u = 4000000000u;
    long t = u + 1L;
    printf("%ld %ld %ld\n", r, s, t);
    return 0;
}
