/* posix.c: process, pipe, directory and file-system wrappers over the Linux aarch64 syscalls. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "internal.h"

#define SYS_getcwd     17
#define SYS_dup        23
#define SYS_dup3       24
#define SYS_mkdirat    34
#define SYS_unlinkat   35
#define SYS_renameat   38
#define SYS_chdir      49
#define SYS_pipe2      59
#define SYS_getdents64 61
#define SYS_newfstatat 79
#define SYS_fstat      80
#define SYS_clone      220
#define SYS_execve     221
#define SYS_wait4      260
#define SYS_getppid    173
#define SIGCHLD_FLAG   17

static long sc(long n, long a, long b, long c, long d)
{
    return __garm_ret(__syscall6(n, a, b, c, d, 0, 0));
}

pid_t fork(void)
{
    /* Buffered output would be written twice, once by each process. */
    fflush(stdout);
    return (pid_t)sc(SYS_clone, SIGCHLD_FLAG, 0, 0, 0);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    return (int)sc(SYS_execve, (long)path, (long)argv, (long)envp, 0);
}

int execv(const char *path, char *const argv[])
{
    return execve(path, argv, environ);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
    return (pid_t)sc(SYS_wait4, pid, (long)status, options, 0);
}

pid_t wait(int *status)
{
    return waitpid(-1, status, 0);
}

int pipe(int fds[2])
{
    return (int)sc(SYS_pipe2, (long)fds, 0, 0, 0);
}

int pipe2(int fds[2], int flags)
{
    return (int)sc(SYS_pipe2, (long)fds, flags, 0, 0);
}

int dup(int fd)
{
    return (int)sc(SYS_dup, fd, 0, 0, 0);
}

int dup2(int from, int to)
{
    if (from == to)
        return from;
    return (int)sc(SYS_dup3, from, to, 0, 0);
}

pid_t getppid(void)
{
    return (pid_t)sc(SYS_getppid, 0, 0, 0, 0);
}

int kill(pid_t pid, int sig)
{
    return (int)sc(SYS_kill, pid, sig, 0, 0);
}

int chdir(const char *path)
{
    return (int)sc(SYS_chdir, (long)path, 0, 0, 0);
}

char *getcwd(char *buf, size_t size)
{
    return sc(SYS_getcwd, (long)buf, (long)size, 0, 0) < 0 ? NULL : buf;
}

int mkdir(const char *path, mode_t mode)
{
    return (int)sc(SYS_mkdirat, AT_FDCWD, (long)path, mode, 0);
}

int unlink(const char *path)
{
    return (int)sc(SYS_unlinkat, AT_FDCWD, (long)path, 0, 0);
}

int rmdir(const char *path)
{
    return (int)sc(SYS_unlinkat, AT_FDCWD, (long)path, 0x200, 0);
}

int rename(const char *from, const char *to)
{
    return (int)sc(SYS_renameat, AT_FDCWD, (long)from, AT_FDCWD, (long)to);
}

int stat(const char *path, struct stat *st)
{
    return (int)sc(SYS_newfstatat, AT_FDCWD, (long)path, (long)st, 0);
}

int fstat(int fd, struct stat *st)
{
    return (int)sc(SYS_fstat, fd, (long)st, 0, 0);
}

/* Directory streams read getdents64 records through a fixed buffer. */
struct __garm_dir {
    int fd;
    long pos, len;
    char buf[2048];
    struct dirent ent;
};

DIR *opendir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return NULL;
    DIR *d = malloc(sizeof *d);
    if (!d) {
        close(fd);
        return NULL;
    }
    d->fd = fd;
    d->pos = d->len = 0;
    return d;
}

struct dirent *readdir(DIR *d)
{
    if (d->pos >= d->len) {
        long n = sc(SYS_getdents64, d->fd, (long)d->buf, sizeof d->buf, 0);
        if (n <= 0)
            return NULL;
        d->len = n;
        d->pos = 0;
    }
    char *rec = d->buf + d->pos;
    unsigned short reclen;
    memcpy(&reclen, rec + 16, sizeof reclen);
    memcpy(&d->ent.d_ino, rec, 8);
    d->ent.d_type = (unsigned char)rec[18];
    strncpy(d->ent.d_name, rec + 19, sizeof d->ent.d_name - 1);
    d->ent.d_name[sizeof d->ent.d_name - 1] = 0;
    d->pos += reclen;
    return &d->ent;
}

int closedir(DIR *d)
{
    int r = close(d->fd);
    free(d);
    return r;
}

#define SYS_rt_sigaction 134
#define SA_RESTORER 0x04000000

/* The handler returns here; rt_sigreturn restores the interrupted registers. The native (host)
 * build of the runtime runs no signal handlers, so it has no stub. */
void __garm_sigreturn(void);
#if defined(__garmcc__)
/* garm's own C compiler: the same words in a function without a frame. */
__attribute__((naked)) void __garm_sigreturn(void)
{
    __builtin_a64(0xd2801168); /* mov x8, #139 */
    __builtin_a64(0xd4000001); /* svc #0 */
    __builtin_a64(0);          /* udf #0 */
}
#elif defined(__aarch64__) && !defined(GARM_HOST)
__asm__(".text\n.p2align 2\n.globl __garm_sigreturn\n__garm_sigreturn:\n"
        "    mov x8, #139\n    svc #0\n    udf #0\n");
#else
void __garm_sigreturn(void) {}
#endif

struct k_sigaction {
    sighandler_t handler;
    unsigned long flags;
    void (*restorer)(void);
    unsigned long mask;
};

sighandler_t signal(int sig, sighandler_t h)
{
    struct k_sigaction sa = {h, SA_RESTORER, __garm_sigreturn, 0}, old = {0, 0, 0, 0};
    if (sc(SYS_rt_sigaction, sig, (long)&sa, (long)&old, 8) < 0)
        return SIG_ERR;
    return old.handler;
}

int raise(int sig)
{
    return kill(getpid(), sig);
}
