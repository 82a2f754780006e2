/* checks #if with character constants, shifts, ternary and unsigned arithmetic */
#include <stdio.h>
int main(void)
{
#if 'A' == 65 && (1 << 4) == 16
    printf("ok1\n");
#endif
#if (3 > 2 ? 10 : 20) == 10
    printf("ok2\n");
#endif
#if -1 < 0u
    printf("bad\n");
#else
    printf("ok3\n");
#endif
#if 0x10 + 010 == 24
    printf("ok4\n");
#endif
    return 0;
}
