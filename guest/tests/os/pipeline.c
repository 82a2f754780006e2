/* pipeline.c: producer | filter | counter built with fork, pipe2, dup2 and execve of
 * /proc/self/exe. With --no-exec the children run their role directly (qemu-user cannot exec an
 * AArch64 ELF without binfmt), so both ways must print the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int produce(void)
{
    for (int i = 1; i <= 300; i++)
        printf("line %d\n", i);
    return 0;
}

static int filter(void)
{
    char buf[64];
    while (fgets(buf, sizeof buf, stdin)) {
        int v = atoi(buf + 5);
        if (v % 3 == 0)
            printf("%d\n", v * 7);
    }
    return 0;
}

static int count(void)
{
    char buf[64];
    long n = 0, sum = 0;
    while (fgets(buf, sizeof buf, stdin)) {
        n++;
        sum += atol(buf);
    }
    printf("counter: %ld lines, sum %ld\n", n, sum);
    return 0;
}

static int role(const char *r)
{
    if (!strcmp(r, "produce"))
        return produce();
    if (!strcmp(r, "filter"))
        return filter();
    return count();
}

static pid_t spawn(const char *r, int in, int out, int use_exec, int close1, int close2)
{
    pid_t p = fork();
    if (p != 0)
        return p;
    if (in >= 0)
        dup2(in, 0);
    if (out >= 0)
        dup2(out, 1);
    close(close1);
    close(close2);
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    if (use_exec) {
        char *argv[] = {"pipeline", "--role", (char *)r, NULL};
        execv("/proc/self/exe", argv);
        printf("execv failed\n");
        exit(127);
    }
    exit(role(r));
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--role"))
        return role(argv[2]);
    int use_exec = !(argc > 1 && !strcmp(argv[1], "--no-exec"));
    int a[2], b[2];
    if (pipe(a) || pipe(b)) {
        printf("pipe failed\n");
        return 1;
    }
    pid_t p1 = spawn("produce", -1, a[1], use_exec, a[0], b[0]);
    pid_t p2 = spawn("filter", a[0], b[1], use_exec, a[1], b[0]);
    pid_t p3 = spawn("count", b[0], -1, use_exec, a[1], b[1]);
    close(a[0]);
    close(a[1]);
    close(b[0]);
    close(b[1]);
    int ok = 0;
    pid_t ps[3] = {p1, p2, p3};
    for (int i = 0; i < 3; i++) {
        int st = 0;
        pid_t w = waitpid(ps[i], &st, 0);
        ok += w == ps[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    printf("parent: %d children exited cleanly\n", ok);
    return ok == 3 ? 0 : 1;
}
