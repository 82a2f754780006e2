/* misbehave.c: every instance does the same honest work (a file in /tmp, a sum) and prints it;
 * then, by its GARM_INSTANCE index, some misbehave: 0 signals everything (kill -1), 1 forks
 * until refused, 2 floods stdout with one endless line, 3 overwrites /tmp's files, 4 spins
 * forever, 5 writes through a null pointer; 6 and 7 only work. Each instance must be its own
 * machine: the misbehaviour of one never reaches the output of another. The file lives in the
 * directory argv[1] (default /tmp).
 *
 * NEVER run instances 0 or 4 outside garm: kill(-1) as root signals every process of the
 * machine, and instance 4 never ends. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char path[256];

static void work(int me, const char *phase)
{
    char want[32], got[32] = {0};
    snprintf(want, sizeof want, "instance %d", me);
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (phase[0] == 'b') {
        write(fd, want, strlen(want));
    } else {
        read(fd, got, sizeof got - 1);
    }
    close(fd);
    unsigned long sum = 0;
    for (unsigned long k = 0; k < 20000; k++)
        sum += k * (unsigned long)(me + 1);
    printf("%s: %s sum=%lu%s%s\n", phase, want, sum, phase[0] == 'a' ? " file=" : "", got);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    snprintf(path, sizeof path, "%s/mine", argc > 1 ? argv[1] : "/tmp");
    const char *e = getenv("GARM_INSTANCE");
    int me = e ? atoi(e) : 6;
    work(me, "before");
    switch (me) {
    case 0:
        kill(-1, SIGKILL);
        break;
    case 1:
        for (int i = 0; i < 100; i++) {
            pid_t c = fork();
            if (c < 0)
                break;
            if (c == 0)
                _exit(0);
        }
        while (wait(NULL) > 0)
            ;
        break;
    case 2:
        for (int i = 0; i < 4096; i++)
            fwrite("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 1, 128, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        break;
    case 3: {
        int fd = open(path, O_WRONLY | O_TRUNC);
        write(fd, "clobbered", 9);
        close(fd);
        break;
    }
    case 4:
        for (volatile unsigned long n = 0;; n++)
            ;
    case 5:
        *(volatile int *)0 = 1;
        break;
    }
    work(me, "after");
    return 0;
}
