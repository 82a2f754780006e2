/* signals.c: handlers run for raise() and for a signal from another process, SIG_IGN keeps a
 * process alive, SIGCHLD reaches its handler, and default actions kill as wait() reports. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int usr1, usr2, chld;

static void on_usr1(int sig) { usr1 += sig; }
static void on_usr2(int sig) { usr2 = sig; }
static void on_chld(int sig) { chld += sig == SIGCHLD; }

int main(void)
{
    signal(SIGUSR1, on_usr1);
    for (int i = 0; i < 3; i++)
        raise(SIGUSR1);
    printf("usr1 handled: %d\n", usr1);

    signal(SIGTERM, SIG_IGN);
    raise(SIGTERM);
    printf("survived an ignored SIGTERM\n");

    signal(SIGUSR2, on_usr2);
    pid_t parent = getpid();
    pid_t c = fork();
    if (c == 0) {
        kill(parent, SIGUSR2);
        _exit(0);
    }
    long spins = 0;
    while (!usr2)
        spins++;
    int st;
    waitpid(c, &st, 0);
    printf("usr2 from child: %d\n", usr2);

    signal(SIGCHLD, on_chld);
    signal(SIGTERM, SIG_DFL);
    c = fork();
    if (c == 0) {
        for (;;)
            ;
    }
    kill(c, SIGTERM);
    waitpid(c, &st, 0);
    printf("child killed by signal %d (signaled %d)\n", WTERMSIG(st), WIFSIGNALED(st));
    while (!chld)
        ;
    printf("sigchld seen\n");
    signal(SIGUSR1, SIG_DFL);
    raise(SIGUSR1);
    printf("not reached\n");
    return 0;
}
