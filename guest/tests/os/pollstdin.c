/* pollstdin.c: waits in ppoll for standard input with no timeout, then reads it: input that
 * arrives late must wake the guest, never look like a deadlock. */
#include <stdio.h>
#include <unistd.h>
#include <garm.h>

struct pfd { int fd; short events, revents; };

int main(void)
{
    struct pfd p = {0, 1, 0};
    long n = __syscall6(73, (long)&p, 1, 0, 0, 8, 0);
    char buf[64] = {0};
    long r = read(0, buf, sizeof buf - 1);
    printf("ppoll %ld revents %d read %ld [%s]\n", n, p.revents, r, buf);
    return 0;
}
