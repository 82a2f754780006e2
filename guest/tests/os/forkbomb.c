/* forkbomb.c: forks until fork fails; children wait on a pipe until the parent closes it. */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    int fd[2];
    pipe(fd);
    int n = 0;
    for (;;) {
        pid_t p = fork();
        if (p < 0)
            break;
        if (p == 0) {
            char c;
            close(fd[1]);
            read(fd[0], &c, 1);
            _exit(0);
        }
        n++;
        if (n > 100000)
            break;
    }
    int err = errno;
    close(fd[1]);
    int reaped = 0;
    while (wait(NULL) > 0)
        reaped++;
    printf("fork failed with %s after %d children; reaped %d\n", err == EAGAIN ? "EAGAIN" : "other", n, reaped);
    return 0;
}
