/* smallerrs.c: calls with bad pointers, sizes and fds, each printed as "name: result": Linux's
 * answers (qemu-aarch64 passes them through from the host kernel) are the reference. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <garm.h>

#define BAD 8L /* in the null page: never mapped */

static void show(const char *what, long r) { printf("%s: %ld\n", what, r); }

int main(void)
{
    int p[2];
    pipe(p);
    write(p[1], "data", 4);
    show("read pipe into bad buffer", __syscall6(63, p[0], BAD, 4, 0, 0, 0));
    char b[8] = {0};
    show("then read pipe", __syscall6(63, p[0], (long)b, 8, 0, 0, 0));
    printf("got [%s]\n", b);
    int d = open("/", O_RDONLY | O_DIRECTORY);
    show("getdents into bad buffer", __syscall6(61, d, BAD, 4096, 0, 0, 0));
    show("clock_gettime NULL", __syscall6(113, 0, 0, 0, 0, 0, 0));
    show("fchdir AT_FDCWD", __syscall6(50, -100, 0, 0, 0, 0, 0));
    show("readv 1025 entries", __syscall6(65, p[0], (long)b, 1025, 0, 0, 0));
    show("writev 1025 entries", __syscall6(66, p[1], (long)b, 1025, 0, 0, 0));
    show("setpgid to a missing group", __syscall6(154, 0, 999999, 0, 0, 0, 0));
    show("rt_sigprocmask bad new set", __syscall6(135, 0, BAD, 0, 8, 0, 0));
    show("rt_sigprocmask bad old set", __syscall6(135, 0, 0, BAD, 8, 0, 0));
    show("prlimit64 bad old limit", __syscall6(261, 0, 3, 0, BAD, 0, 0));
    show("dup3 same fd", __syscall6(24, p[0], p[0], 0, 0, 0, 0));
    show("lseek pipe", __syscall6(62, p[0], 0, 0, 0, 0, 0));
    show("ftruncate read-only fd", __syscall6(46, d, 0, 0, 0, 0, 0));
    show("readlink bufsiz 0", __syscall6(78, -100, (long)"/proc/self/exe", (long)b, 0, 0, 0));
    show("wait4 no children", __syscall6(260, -1, 0, 0, 0, 0, 0));
    show("close -1", __syscall6(57, -1, 0, 0, 0, 0, 0));
    char path[64];
    snprintf(path, sizeof path, "/tmp/garm-smallerrs-%d", getpid());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0644);
    show("F_GETFL after O_CREAT|O_TRUNC|O_APPEND", __syscall6(25, fd, 3, 0, 0, 0, 0));
    unlink(path);
    return 0;
}
