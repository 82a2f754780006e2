/* checks explicitly signed char and unsigned char hold their ranges and convert back correctly */
#include <stdio.h>
#include <limits.h>
int main(void)
{
    signed char sc = (signed char)200;
    unsigned char uc = (unsigned char)-56;
    int i = sc, j = uc;
    printf("%d %d %d %d\n", i, j, sc < 0, uc > 0);
    printf("%d %d %d\n", SCHAR_MIN, SCHAR_MAX, UCHAR_MAX);
    return 0;
}
