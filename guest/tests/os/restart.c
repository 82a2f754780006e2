/* restart.c: a signal interrupts a read blocked on an empty pipe: with SA_RESTART the read goes
 * on and returns the data written later; without it the read fails with EINTR. The child waits
 * 100 ms (nanosleep, not a busy loop whose length depends on the engine's speed) before each
 * step, so the parent is blocked in read by then under Linux/qemu and garm alike. */
#include <errno.h>
#include <garm.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int got;
static void on_usr1(int sig) { got = sig; }
void __garm_sigreturn(void);

static void install(unsigned long flags)
{
    struct { void (*h)(int); unsigned long flags; void (*restorer)(void); unsigned long mask; } sa = {
        on_usr1, 0x04000000UL | flags, __garm_sigreturn, 0};
    __syscall6(134, SIGUSR1, (long)&sa, 0, 8, 0, 0);
}

static void pause_ms(long ms)
{
    long ts[2] = {0, ms * 1000000};
    __syscall6(101, (long)ts, 0, 0, 0, 0, 0);
}

static void round_trip(unsigned long flags, const char *name)
{
    install(flags);
    got = 0;
    int fd[2];
    pipe(fd);
    pid_t parent = getpid();
    pid_t c = fork();
    if (c == 0) {
        close(fd[0]);
        pause_ms(100);
        kill(parent, SIGUSR1);
        pause_ms(100);
        write(fd[1], "data", 4);
        _exit(0);
    }
    close(fd[1]);
    char buf[8] = {0};
    errno = 0;
    long n = read(fd[0], buf, sizeof buf - 1);
    printf("%s: read %ld errno %d handler %d\n", name, n, n < 0 ? errno : 0, got);
    if (n < 0)
        n = read(fd[0], buf, sizeof buf - 1);
    printf("%s: then [%s]\n", name, buf);
    close(fd[0]);
    waitpid(c, NULL, 0);
}

int main(void)
{
    round_trip(0x10000000UL, "SA_RESTART");
    round_trip(0, "no restart");
    return 0;
}
