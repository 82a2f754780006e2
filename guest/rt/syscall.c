/* syscall.c: the single svc entry point and the thin POSIX wrappers built on it. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

int errno;

#ifdef GARM_HOST
/* Host build (garm's native JIT oracle): there is no kernel to trap into, so every syscall goes
 * through the table garm passes to __garm_host_entry, still with the aarch64 numbers, and the
 * host answers it with the same semantics as for a GPU guest. */
const struct __garm_host *__garm_host;

long __syscall6(long n, long a, long b, long c, long d, long e, long f)
{
    return __garm_host->syscall6(n, a, b, c, d, e, f);
}
#elif defined(__garmcc__)
/* garm's own C compiler has no inline assembly; its __syscall builtin is the svc. */
long __syscall6(long n, long a, long b, long c, long d, long e, long f)
{
    return __syscall(n, a, b, c, d, e, f);
}
#else
long __syscall6(long n, long a, long b, long c, long d, long e, long f)
{
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc #0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory");
    return x0;
}
#endif

long __garm_ret(long r)
{
    /* The kernel reports errors as -4095..-1; anything else is a value. */
    if ((unsigned long)r > -4096UL) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

ssize_t read(int fd, void *buf, size_t n)
{
    return __garm_ret(__syscall6(SYS_read, fd, (long)buf, (long)n, 0, 0, 0));
}

ssize_t write(int fd, const void *buf, size_t n)
{
    return __garm_ret(__syscall6(SYS_write, fd, (long)buf, (long)n, 0, 0, 0));
}

int close(int fd)
{
    return (int)__garm_ret(__syscall6(SYS_close, fd, 0, 0, 0, 0, 0));
}

off_t lseek(int fd, off_t off, int whence)
{
    return __garm_ret(__syscall6(SYS_lseek, fd, off, whence, 0, 0, 0));
}

int openat(int dirfd, const char *path, int flags, ...)
{
    unsigned mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, unsigned);
        va_end(ap);
    }
    return (int)__garm_ret(__syscall6(SYS_openat, dirfd, (long)path, flags, mode, 0, 0));
}

int open(const char *path, int flags, ...)
{
    unsigned mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, unsigned);
        va_end(ap);
    }
    return (int)__garm_ret(__syscall6(SYS_openat, AT_FDCWD, (long)path, flags, mode, 0, 0));
}

pid_t getpid(void)
{
    return (pid_t)__syscall6(SYS_getpid, 0, 0, 0, 0, 0, 0);
}

/* The kernel's brk returns the new break, or the old one when it refuses. */
static char *cur_brk;

int brk(void *addr)
{
    char *r = (char *)__syscall6(SYS_brk, (long)addr, 0, 0, 0, 0, 0);
    cur_brk = r;
    if (r != (char *)addr) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

void *sbrk(long inc)
{
    if (!cur_brk)
        cur_brk = (char *)__syscall6(SYS_brk, 0, 0, 0, 0, 0, 0);
    char *old = cur_brk;
    if (inc == 0)
        return old;
    char *want = old + inc;
    char *got = (char *)__syscall6(SYS_brk, (long)want, 0, 0, 0, 0, 0);
    if (got != want) {
        cur_brk = got;
        errno = ENOMEM;
        return (void *)-1;
    }
    cur_brk = got;
    return old;
}

void __garm_exit_group(int status)
{
#ifdef GARM_HOST
    /* Unwind the guest's frames only, back to __garm_host_entry. */
    __garm_host_exit(status);
#endif
    for (;;) {
        __syscall6(SYS_exit_group, status, 0, 0, 0, 0, 0);
        __syscall6(SYS_exit, status, 0, 0, 0, 0, 0);
    }
}

void _exit(int status)
{
    __garm_exit_group(status);
}

void _Exit(int status)
{
    __garm_exit_group(status);
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
    return (int)__garm_ret(__syscall6(SYS_clock_gettime, clk, (long)ts, 0, 0, 0, 0));
}

time_t time(time_t *t)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
        return (time_t)-1;
    if (t)
        *t = ts.tv_sec;
    return ts.tv_sec;
}

clock_t clock(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
        return (clock_t)-1;
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

void garm_clear_cache(void *begin, void *end)
{
#if defined(GARM_HOST) && !defined(__aarch64__)
    /* An x86_64 host keeps instruction and data caches coherent (an aarch64 one, running the
     * dlopen JIT fallback, needs the maintenance below like the guest). */
    (void)begin;
    (void)end;
    return;
#endif
    /* Step by 16 bytes, the smallest line size CTR_EL0 can report, instead of
     * reading CTR_EL0 (an emulator need not implement that register). */
    unsigned long line = 16;
    unsigned long b = (unsigned long)begin & ~(line - 1), e = (unsigned long)end;
#ifdef __garmcc__
    /* The same instructions as words (the operand goes to x0). */
    for (unsigned long p = b; p < e; p += line)
        __builtin_a64(0xd50b7b20, p); /* dc cvau, x0 */
    __builtin_a64(0xd5033b9f);        /* dsb ish */
    for (unsigned long p = b; p < e; p += line)
        __builtin_a64(0xd50b7520, p); /* ic ivau, x0 */
    __builtin_a64(0xd5033b9f);
    __builtin_a64(0xd5033fdf); /* isb */
#else
    for (unsigned long p = b; p < e; p += line)
        __asm__ volatile("dc cvau, %0" ::"r"(p) : "memory");
    __asm__ volatile("dsb ish" ::: "memory");
    for (unsigned long p = b; p < e; p += line)
        __asm__ volatile("ic ivau, %0" ::"r"(p) : "memory");
    __asm__ volatile("dsb ish\n\tisb" ::: "memory");
#endif
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return (void *)__garm_ret(__syscall6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, off));
}

int munmap(void *addr, size_t len)
{
    return (int)__garm_ret(__syscall6(SYS_munmap, (long)addr, (long)len, 0, 0, 0, 0));
}

int mprotect(void *addr, size_t len, int prot)
{
    return (int)__garm_ret(__syscall6(SYS_mprotect, (long)addr, (long)len, prot, 0, 0, 0));
}

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    void *new_addr = va_arg(ap, void *);
    va_end(ap);
    return (void *)__garm_ret(
        __syscall6(SYS_mremap, (long)old, (long)old_len, (long)new_len, flags, (long)new_addr, 0));
}
