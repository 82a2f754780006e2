/* orphan.c: the parent exits at once; its child runs on, sleeps and then writes. Linux (and
 * qemu-user) print the orphan's line after the parent has gone. */
#include <stdio.h>
#include <unistd.h>
#include <garm.h>

int main(void)
{
    printf("parent\n");
    fflush(stdout);
    if (fork() == 0) {
        long ts[2] = {0, 50000000};
        __syscall6(101, (long)ts, 0, 0, 0, 0, 0);
        printf("orphan after parent exit\n");
        return 0;
    }
    return 3;
}
