/* crt.c: C half of process start-up: unpack the initial stack, run main, exit. */
#include <stdlib.h>
#include "internal.h"

char **environ;

extern int main(int argc, char **argv, char **envp);
extern void (*__init_array_start[])(void) __attribute__((weak));
extern void (*__init_array_end[])(void) __attribute__((weak));

void __garm_start(long *sp) __attribute__((noreturn, used));

void __garm_start(long *sp)
{
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    char **envp = argv + argc + 1;  /* skip argv's NULL terminator */
    environ = envp;

    for (void (**f)(void) = __init_array_start; f < __init_array_end; f++)
        (*f)();

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
