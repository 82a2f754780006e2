/* hostile.c: guest inputs that must get an error, never crash or escape garm: a write length near
 * 2^32, huge mmap/pwrite/ftruncate sizes, bad signal numbers, a symlink out of a mount opened with
 * O_NOFOLLOW and through a relative link, a bad DC ZVA address (in a child, which dies). */
#include <errno.h>
#include <fcntl.h>
#include <garm.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void show(const char *what, long r) { printf("%s: %ld\n", what, r); }
static void show_open(const char *what, int r) { printf("%s: %d\n", what, r < 0 ? -errno : r); }

int main(void)
{
    char buf[16] = "x";
    show("write len 0xfffffffc", __syscall6(64, 1, (long)buf, 0xfffffffcL, 0, 0, 0));
    show("write len 2^40", __syscall6(64, 1, (long)buf, 1L << 40, 0, 0, 0));
    show("mmap fixed at the top", __syscall6(222, -4096L, 4096, 3, 0x32, -1, 0));
    show("mmap 2^62", __syscall6(222, 0, 1L << 62, 3, 0x22, -1, 0));
    int fd = open("/tmp/big", O_CREAT | O_RDWR, 0644);
    show("pwrite at 2^40", __syscall6(68, fd, (long)buf, 1, 1L << 40, 0, 0));
    show("ftruncate 2^62", __syscall6(46, fd, 1L << 62, 0, 0, 0, 0));
    show("kill 200", __syscall6(129, getpid(), 200, 0, 0, 0, 0));
    show("syscall 293", __syscall6(293, 0, 0, 0, 0, 0, 0));
    show("syscall 293 again", __syscall6(293, 0, 0, 0, 0, 0, 0));
    show("read at EOF into the null page", __syscall6(63, fd, 8, 4, 0, 0, 0));
    show_open("open link out of mount, O_NOFOLLOW", open("/m/out", O_RDONLY | O_NOFOLLOW));
    show_open("open link out of mount", open("/m/out/passwd", O_RDONLY));
    show_open("create through relative link", open("/m/rel", O_CREAT | O_WRONLY | O_TRUNC, 0644));
    pid_t p = fork();
    if (p == 0) {
        __asm__ volatile("dc zva, %0" ::"r"(0xffff00000000UL));
        _exit(0);
    }
    int st;
    waitpid(p, &st, 0);
    printf("dc zva child: signal %d\n", WTERMSIG(st));
    printf("still here\n");
    return 0;
}
