/* crt.c: C half of process start-up: relocate a static PIE, unpack the initial stack, run main,
 * exit. */
#include <stdlib.h>
#include "internal.h"

char **environ;

extern int main(int argc, char **argv, char **envp);
#ifndef __garmcc__
extern void (*__init_array_start[])(void) __attribute__((weak));
extern void (*__init_array_end[])(void) __attribute__((weak));
#endif

void __garm_start(long *sp) __attribute__((noreturn, used));

#if defined(__PIE__) && !defined(GARM_HOST)
/* Static-PIE self-relocation, as glibc's _dl_relocate_static_pie: the kernel (and garm) maps the
 * segments at a load bias and applies no relocations, so the program fixes its own absolute
 * pointers (GOT entries, init_array, pointer tables) before any of them is used. Only built into
 * the -fPIE runtime (`garm cc --pie`): the non-PIE runtime stays byte-identical. The host JIT's
 * runtime (GARM_HOST, also -fPIE) is relocated by the JIT itself and never links a _DYNAMIC.
 *
 * Everything here must work unrelocated: only locals and hidden symbols (reached PC-relative,
 * never through the GOT), no calls, no switch (no jump tables), no globals written. */
/* Defined by ld.lld for every -pie link. Hidden and not weak: clang reaches a weak symbol through
 * the GOT (so it can be null), and the GOT is exactly what is not relocated yet. */
extern const unsigned long _DYNAMIC[] __attribute__((visibility("hidden")));

#define PT_DYNAMIC 2
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define DT_RELA 7
#define DT_RELASZ 8
#define DT_RELAENT 9
#define DT_RELRSZ 35
#define DT_RELR 36
#define R_AARCH64_RELATIVE 1027

static inline __attribute__((always_inline)) void relocate_static_pie(long *sp)
{
    const unsigned long *dyn = _DYNAMIC;
    /* The bias is where PT_DYNAMIC ended up (PC-relative, above) minus where it was linked (its
     * program header, found through AT_PHDR in the auxv after argv and envp). */
    unsigned long *p = (unsigned long *)(sp + 1 + sp[0] + 1);
    while (*p)
        p++;
    unsigned long phdr = 0, phent = 0, phnum = 0;
    for (p++; p[0]; p += 2) {
        if (p[0] == AT_PHDR)
            phdr = p[1];
        else if (p[0] == AT_PHENT)
            phent = p[1];
        else if (p[0] == AT_PHNUM)
            phnum = p[1];
    }
    unsigned long base = 0;
    for (unsigned long i = 0; i < phnum; i++) {
        const unsigned int *ph = (const unsigned int *)(phdr + i * phent);
        if (ph[0] == PT_DYNAMIC)
            base = (unsigned long)dyn - *(const unsigned long *)(ph + 4); /* p_vaddr */
    }
    unsigned long rela = 0, relasz = 0, relaent = 24, relr = 0, relrsz = 0;
    for (; dyn[0]; dyn += 2) {
        if (dyn[0] == DT_RELA)
            rela = dyn[1];
        else if (dyn[0] == DT_RELASZ)
            relasz = dyn[1];
        else if (dyn[0] == DT_RELAENT)
            relaent = dyn[1];
        else if (dyn[0] == DT_RELR)
            relr = dyn[1];
        else if (dyn[0] == DT_RELRSZ)
            relrsz = dyn[1];
    }
    for (unsigned long off = 0; off < relasz; off += relaent) {
        const unsigned long *r = (const unsigned long *)(base + rela + off);
        /* A static PIE has only relative relocations; anything else cannot be resolved here. */
        if ((unsigned int)r[1] != R_AARCH64_RELATIVE)
            __builtin_trap();
        *(unsigned long *)(base + r[0]) = base + r[2];
    }
    /* DT_RELR (-z pack-relative-relocs): an address entry relocates one word and sets the next
     * position; a bitmap entry (low bit set) relocates the words its bits 1..63 select. */
    unsigned long *where = 0;
    for (unsigned long off = 0; off < relrsz; off += 8) {
        unsigned long e = *(const unsigned long *)(base + relr + off);
        if (!(e & 1)) {
            where = (unsigned long *)(base + e);
            *where++ += base;
        } else {
            for (unsigned long i = 0; (e >>= 1) != 0; i++)
                if (e & 1)
                    where[i] += base;
            where += 63;
        }
    }
}
#endif

void __garm_start(long *sp)
{
#if defined(__PIE__) && !defined(GARM_HOST)
    relocate_static_pie(sp); /* first: nothing before it may use an absolute pointer */
#endif
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    char **envp = argv + argc + 1;  /* skip argv's NULL terminator */
    environ = envp;

#ifndef __garmcc__ /* garm's own C compiler has no constructors */
    for (void (**f)(void) = __init_array_start; f < __init_array_end; f++)
        (*f)();
#endif

    exit(main(argc, argv, envp));
}

#ifdef GARM_HOST
/* Host entry for garm's native JIT oracle: `sp` is laid out as at _start; exit() longjmps back
 * here, so only guest frames are unwound and the status is returned to the host. */
static void *exit_jmp[5];
static volatile int exit_status;

void __garm_host_exit(int status)
{
    exit_status = status;
    __builtin_longjmp(exit_jmp, 1);
}

int __garm_host_entry(const struct __garm_host *host, long *sp)
{
    __garm_host = host;
    if (__builtin_setjmp(exit_jmp))
        return exit_status;
    __garm_start(sp);
}
#endif
