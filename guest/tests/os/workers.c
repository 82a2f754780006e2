/* workers.c: forks N workers at once (default 64); each sums a slice of 1..N*1000 and sends its
 * result to the parent through one shared pipe; the parent checks the total. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int fd[2];
    if (pipe(fd))
        return 1;
    for (int w = 0; w < n; w++) {
        pid_t p = fork();
        if (p < 0) {
            printf("fork %d failed\n", w);
            return 1;
        }
        if (p == 0) {
            close(fd[0]);
            unsigned long long s = 0;
            for (unsigned long long k = (unsigned long long)w * 1000 + 1; k <= (unsigned long long)(w + 1) * 1000; k++)
                s += k * k % 1000003;
            unsigned long long msg[2] = {(unsigned long long)w, s};
            write(fd[1], msg, sizeof msg);
            _exit(w % 5);
        }
    }
    close(fd[1]);
    unsigned long long total = 0, msg[2];
    int got = 0;
    while (read(fd[0], msg, sizeof msg) == sizeof msg) {
        total += msg[1] * (msg[0] + 1);
        got++;
    }
    int statuses = 0, reaped = 0;
    for (;;) {
        int st;
        pid_t p = wait(&st);
        if (p < 0)
            break;
        reaped++;
        statuses += WEXITSTATUS(st);
    }
    printf("%d results, %d reaped, status sum %d, total %llu\n", got, reaped, statuses, total);
    return 0;
}
