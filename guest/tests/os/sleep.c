/* sleep.c: nanosleep blocks only its own process: a child runs to completion meanwhile. */
#include <garm.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    int fd[2];
    pipe(fd);
    pid_t c = fork();
    if (c == 0) {
        unsigned long s = 0;
        for (unsigned long i = 0; i < 20000; i++)
            s += i * i;
        printf("child: %lu\n", s);
        _exit(0);
    }
    long ts[2] = {0, 200000000};
    long r = __syscall6(101, (long)ts, 0, 0, 0, 0, 0);
    printf("parent: nanosleep %ld\n", r);
    int st;
    printf("reaped %d\n", waitpid(c, &st, 0) == c);
    long bad[2] = {0, 1000000000};
    printf("bad nanosleep %ld\n", __syscall6(101, (long)bad, 0, 0, 0, 0, 0));
    return 0;
}
