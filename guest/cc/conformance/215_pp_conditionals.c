/* checks #if, #elif, #else with arithmetic and nesting */
#include <stdio.h>
#define LEVEL 3
int main(void)
{
#if LEVEL > 5
    printf("high\n");
#elif LEVEL == 3
    printf("three\n");
#if (LEVEL * 2 + 1) % 7 == 0 && !0
    printf("seven\n");
#else
    printf("not seven\n");
#endif
#else
    printf("low\n");
#endif
#if 0
    this is not compiled
#endif
#if UNDEFINED_NAME
    printf("bad\n");
#endif
    return 0;
}
