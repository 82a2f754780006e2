/* fenv.h: floating-point environment (guest/rt/fp/fenv.c).
 *
 * The public constants are the AArch64 FPCR/FPSR bit values on every target; the x86_64 host
 * build (GARM_HOST, the JIT oracle) translates them to and from MXCSR. */
#ifndef _FENV_H
#define _FENV_H

#define FE_INVALID    0x01
#define FE_DIVBYZERO  0x02
#define FE_OVERFLOW   0x04
#define FE_UNDERFLOW  0x08
#define FE_INEXACT    0x10
#define FE_ALL_EXCEPT 0x1f

#define FE_TONEAREST  0x000000
#define FE_UPWARD     0x400000
#define FE_DOWNWARD   0x800000
#define FE_TOWARDZERO 0xc00000

typedef unsigned int fexcept_t;
/* AArch64: the FPCR and FPSR values. x86_64 host: __fpcr holds MXCSR, __fpsr is unused. */
typedef struct {
    unsigned int __fpcr;
    unsigned int __fpsr;
} fenv_t;

#define FE_DFL_ENV ((const fenv_t *)-1)

int feclearexcept(int excepts);
int fegetexceptflag(fexcept_t *flagp, int excepts);
int feraiseexcept(int excepts);
int fesetexceptflag(const fexcept_t *flagp, int excepts);
int fetestexcept(int excepts);
int fegetround(void);
int fesetround(int round);
int fegetenv(fenv_t *envp);
int feholdexcept(fenv_t *envp);
int fesetenv(const fenv_t *envp);
int feupdateenv(const fenv_t *envp);

#endif
