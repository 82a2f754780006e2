/* checks unsigned char and signed char promote to int before arithmetic */
#include <stdio.h>
int main(void)
{
    unsigned char a = 200, b = 100;
    signed char c = -100, d = -100;
    int s = a + b;
    int t = c + d;
    int cmp = (unsigned char)(a + b) < a;
    printf("%d %d %d %d\n", s, t, cmp, a * b);
    return 0;
}
