/* checks && and || values */
#include <stdio.h>
int main(void)
{
    int t = 5, f = 0;
    printf("%d %d %d %d\n", t && t, t && f, f && t, f && f);
    printf("%d %d %d %d\n", t || t, t || f, f || t, f || f);
    return 0;
}
