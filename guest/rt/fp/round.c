/* round.c: the current FP rounding mode, for the integer-only formatting code (printf). */
#include "../internal.h"

/* Found by rounding 1 + 0.75 ulp and its negation, so both ISAs (the guest and the JIT oracle's
 * host) agree: 0 to nearest, 1 upward, 2 downward, 3 toward zero. */
int __garm_round_mode(void)
{
    volatile double one = 1.0, frac = 0x1.8p-53;
    double up = one + frac, dn = -one - frac;
    if (up > one)
        return dn < -one ? 0 : 1;
    return dn < -one ? 2 : 3;
}
