/* round.c: the current FP rounding mode, for the integer-only formatting and parsing code
 * (printf, strtod). Read from FPCR (MXCSR in the JIT oracle's build) through fegetround, not
 * found by arithmetic: an inexact probe would raise FE_INEXACT, which glibc's printf does not. */
#include <fenv.h>
#include "../internal.h"

/* 0 to nearest, 1 upward, 2 downward, 3 toward zero. */
int __garm_round_mode(void)
{
    switch (fegetround()) {
    case FE_UPWARD:
        return 1;
    case FE_DOWNWARD:
        return 2;
    case FE_TOWARDZERO:
        return 3;
    default:
        return 0;
    }
}
