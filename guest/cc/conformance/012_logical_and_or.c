/* checks && and || values */
#include <stdio.h>
int main(void)
{
    int t = 5, f = 0;
    long hi = 1L << 40;
    printf("%d %d %d %d\n", t && t, t && f, f && t, f && f);
    printf("%d %d %d %d\n", t || t, t || f, f || t, f || f);
    printf("%d %d\n", hi && t, f || hi);
    return 0;
}
