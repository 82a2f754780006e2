/* checks Duff's device: case labels inside a do-while in a switch */
#include <stdio.h>
static void copy(char *to, const char *from, int count)
{
    int n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    case 7:      *to++ = *from++;
    case 6:      *to++ = *from++;
    case 5:      *to++ = *from++;
    case 4:      *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}
int main(void)
{
    char dst[32] = { 0 };
    copy(dst, "duff's device works!", 20);
    printf("%s\n", dst);
    return 0;
}
