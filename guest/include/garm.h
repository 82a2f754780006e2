/* garm.h: garm guest runtime identification and garm-specific helpers. */
#ifndef GARM_H
#define GARM_H

#define GARM_RUNTIME_VERSION 1

#include <stddef.h>

/* Make freshly written instructions in [begin, end) visible to instruction
 * fetch (dc cvau / ic ivau / dsb / isb); the runtime has no libgcc, so this
 * stands in for __builtin___clear_cache. */
void garm_clear_cache(void *begin, void *end);

/* Raw Linux syscall: returns the kernel's value (negative errno on failure). */
long __syscall6(long n, long a, long b, long c, long d, long e, long f);

#endif
