/* exit.c: exit/atexit/abort/assert: process termination paths. */
#include <stdlib.h>
#include <stdio.h>
#include "internal.h"

#define ATEXIT_MAX 32

static void (*handlers[ATEXIT_MAX])(void);
static int nhandlers;

#ifndef __garmcc__ /* garm's own C compiler has no destructors */
extern void (*__fini_array_start[])(void) __attribute__((weak));
extern void (*__fini_array_end[])(void) __attribute__((weak));
#endif

int atexit(void (*fn)(void))
{
    if (nhandlers == ATEXIT_MAX)
        return -1;
    handlers[nhandlers++] = fn;
    return 0;
}

void exit(int status)
{
    /* Pop one at a time so a handler that calls exit() doesn't rerun itself. */
    while (nhandlers > 0)
        handlers[--nhandlers]();
#ifndef __garmcc__
    for (void (**f)(void) = __fini_array_end; f > __fini_array_start;)
        (*--f)();
#endif
    __garm_stdio_flush_all();
    __garm_exit_group(status);
}

void abort(void)
{
    /* Like glibc, don't flush stdio; 134 = 128 + SIGABRT, what a shell reports. */
    __garm_exit_group(134);
}

void __garm_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "Assertion failed: %s (%s: %d)\n", expr, file, line);
    abort();
}
