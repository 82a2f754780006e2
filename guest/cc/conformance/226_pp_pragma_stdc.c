/* checks #pragma is ignored, skipped #error does not fire, and __STDC__ / __STDC_VERSION__ */
#include <stdio.h>
#pragma once
#pragma some_unknown_pragma with tokens
#if 0
#error this must not fire
#endif
int main(void)
{
#if defined(__STDC__) && __STDC__ == 1
    printf("stdc\n");
#endif
#if __STDC_VERSION__ >= 199901L
    printf("c99+\n");
#endif
    return 0;
}
