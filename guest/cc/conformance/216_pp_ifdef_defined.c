/* checks #ifdef, #ifndef, defined() and defined without parentheses */
#include <stdio.h>
#define FEATURE_A
#define FEATURE_B 0
int main(void)
{
#ifdef FEATURE_A
    printf("A ");
#endif
#ifndef FEATURE_C
    printf("noC ");
#endif
#if defined(FEATURE_A) && defined FEATURE_B && !defined(FEATURE_C)
    printf("combo ");
#endif
#if defined FEATURE_B && FEATURE_B
    printf("Bon ");
#else
    printf("Boff ");
#endif
    printf("\n");
    return 0;
}
