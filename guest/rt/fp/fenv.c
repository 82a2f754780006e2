/* fenv.c: <fenv.h> for the garm guest runtime.
 *
 * AArch64: FPCR (rounding mode in bits 22-23) and FPSR (cumulative flags in bits 0-4), whose bit
 * values are also the public FE_* constants. x86_64 host build (GARM_HOST, the JIT oracle): the
 * same constants, translated to and from MXCSR (rounding in bits 13-14, flags in bits 0-5). */
#include <fenv.h>

#if defined(__aarch64__)

#ifdef __garmcc__
/* garm's own C compiler: the same instructions as words (x0 in and out). */
static unsigned long get_fpcr(void) { return __builtin_a64(0xd53b4400); }  /* mrs x0, fpcr */
static void set_fpcr(unsigned long v) { __builtin_a64(0xd51b4400, v); }    /* msr fpcr, x0 */
static unsigned long get_fpsr(void) { return __builtin_a64(0xd53b4420); }  /* mrs x0, fpsr */
static void set_fpsr(unsigned long v) { __builtin_a64(0xd51b4420, v); }    /* msr fpsr, x0 */
#else
static inline unsigned long get_fpcr(void)
{
    unsigned long v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(v) : : "memory");
    return v;
}
static inline void set_fpcr(unsigned long v) { __asm__ volatile("msr fpcr, %0" : : "r"(v) : "memory"); }
static inline unsigned long get_fpsr(void)
{
    unsigned long v;
    __asm__ volatile("mrs %0, fpsr" : "=r"(v) : : "memory");
    return v;
}
static inline void set_fpsr(unsigned long v) { __asm__ volatile("msr fpsr, %0" : : "r"(v) : "memory"); }
#endif

static int get_flags(void) { return (int)(get_fpsr() & FE_ALL_EXCEPT); }
static void set_flags(int f) { set_fpsr((get_fpsr() & ~(unsigned long)FE_ALL_EXCEPT) | (unsigned)(f & FE_ALL_EXCEPT)); }
int fegetround(void) { return (int)(get_fpcr() & 0xc00000); }
int fesetround(int r)
{
    if (r & ~0xc00000)
        return -1;
    set_fpcr((get_fpcr() & ~0xc00000UL) | (unsigned)r);
    return 0;
}
int fegetenv(fenv_t *e)
{
    e->__fpcr = (unsigned)get_fpcr();
    e->__fpsr = (unsigned)get_fpsr();
    return 0;
}
int fesetenv(const fenv_t *e)
{
    if (e == FE_DFL_ENV) {
        set_fpcr(0);
        set_fpsr(0);
    } else {
        set_fpcr(e->__fpcr);
        set_fpsr(e->__fpsr);
    }
    return 0;
}
int feholdexcept(fenv_t *e)
{
    fegetenv(e);
    set_fpsr(get_fpsr() & ~(unsigned long)FE_ALL_EXCEPT);
    set_fpcr(get_fpcr() & ~0x9f00UL); /* no traps */
    return 0;
}

#elif defined(__x86_64__)

static inline unsigned get_mxcsr(void)
{
    unsigned v;
    __asm__ volatile("stmxcsr %0" : "=m"(v) : : "memory");
    return v;
}
static inline void set_mxcsr(unsigned v) { __asm__ volatile("ldmxcsr %0" : : "m"(v) : "memory"); }

/* FE_* flag bit i <-> MXCSR flag bit: IE 0x01, ZE 0x04, OE 0x08, UE 0x10, PE 0x20 */
static unsigned to_mx(int f)
{
    return (unsigned)((f & FE_INVALID) | ((f & (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INEXACT)) << 1));
}
static int from_mx(unsigned m) { return (int)((m & 1) | ((m >> 1) & 0x1e)); }

static int get_flags(void) { return from_mx(get_mxcsr()); }
static void set_flags(int f) { set_mxcsr((get_mxcsr() & ~0x3fu) | to_mx(f)); }
int fegetround(void)
{
    switch ((get_mxcsr() >> 13) & 3) {
    case 0: return FE_TONEAREST;
    case 1: return FE_DOWNWARD;
    case 2: return FE_UPWARD;
    default: return FE_TOWARDZERO;
    }
}
int fesetround(int r)
{
    unsigned rc;
    switch (r) {
    case FE_TONEAREST: rc = 0; break;
    case FE_DOWNWARD: rc = 1; break;
    case FE_UPWARD: rc = 2; break;
    case FE_TOWARDZERO: rc = 3; break;
    default: return -1;
    }
    set_mxcsr((get_mxcsr() & ~0x6000u) | (rc << 13));
    return 0;
}
int fegetenv(fenv_t *e)
{
    e->__fpcr = get_mxcsr();
    e->__fpsr = 0;
    return 0;
}
int fesetenv(const fenv_t *e)
{
    set_mxcsr(e == FE_DFL_ENV ? 0x1f80u : e->__fpcr);
    return 0;
}
int feholdexcept(fenv_t *e)
{
    fegetenv(e);
    set_mxcsr((get_mxcsr() & ~0x3fu) | 0x1f80u); /* clear flags, mask all traps */
    return 0;
}

#else
#error "fenv.c: unsupported architecture"
#endif

int feclearexcept(int ex)
{
    set_flags(get_flags() & ~ex);
    return 0;
}
int feraiseexcept(int ex)
{
    set_flags(get_flags() | (ex & FE_ALL_EXCEPT));
    return 0;
}
int fetestexcept(int ex) { return get_flags() & ex & FE_ALL_EXCEPT; }
int fegetexceptflag(fexcept_t *fp, int ex)
{
    *fp = (fexcept_t)(get_flags() & ex & FE_ALL_EXCEPT);
    return 0;
}
int fesetexceptflag(const fexcept_t *fp, int ex)
{
    ex &= FE_ALL_EXCEPT;
    set_flags((get_flags() & ~ex) | ((int)*fp & ex));
    return 0;
}
int feupdateenv(const fenv_t *e)
{
    int f = get_flags();
    fesetenv(e);
    feraiseexcept(f);
    return 0;
}
