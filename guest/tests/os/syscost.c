/* syscost.c: argv[1] host-handled syscalls (getppid) and argv[2] fork+wait pairs, for measuring
 * their cost (garm bench runs it at two sizes and divides the difference). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 0;
    int forks = argc > 2 ? atoi(argv[2]) : 0;
    long s = 0;
    for (int i = 0; i < calls; i++)
        s += getppid();
    for (int i = 0; i < forks; i++) {
        pid_t p = fork();
        if (p == 0)
            _exit(i & 1);
        int st;
        waitpid(p, &st, 0);
        s += WEXITSTATUS(st);
    }
    printf("%ld\n", s);
    return 0;
}
