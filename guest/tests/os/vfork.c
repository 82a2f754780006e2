/* vfork.c: clone(CLONE_VM|CLONE_VFORK|SIGCHLD), as posix_spawn uses it: the parent resumes once
 * the child exits (or execs, with "exec": argv[1]), with the child's pid as the result. */
#include <garm.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return 9;
    int use_exec = argc > 1 && !strcmp(argv[1], "exec");
    for (int round = 0; round < 3; round++) {
        long p = __syscall6(220, 0x100 | 0x4000 | 17, 0, 0, 0, 0, 0);
        if (p == 0) {
            if (use_exec) {
                char *args[] = {"vfork", "child", NULL};
                execv("/proc/self/exe", args);
            }
            _exit(5 + round);
        }
        int st = 0;
        long w = waitpid((pid_t)p, &st, 0);
        printf("round %d: child %s, status %d\n", round, w == p && p > 0 ? "reaped" : "LOST", WEXITSTATUS(st));
    }
    printf("no stray children: %d\n", wait(NULL) < 0);
    return 0;
}
