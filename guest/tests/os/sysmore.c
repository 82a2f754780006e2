/* sysmore.c: the calls libcs make at start-up and in I/O loops beyond the basics: prctl names,
 * ppoll and pselect6 over pipes (ready, timeout, hang-up, bad fd), clock_getres, rseq. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <garm.h>

struct pfd { int fd; short events, revents; };

static void show(const char *what, long r) { printf("%s: %ld\n", what, r); }

int main(void)
{
    char name[16] = {0};
    show("prctl set name", __syscall6(167, 15, (long)"worker-7", 0, 0, 0, 0));
    show("prctl get name", __syscall6(167, 16, (long)name, 0, 0, 0, 0));
    printf("name [%s]\n", name);
    show("prctl unknown", __syscall6(167, 0x7fffffff, 0, 0, 0, 0, 0));
    long res[2] = {9, 9};
    show("clock_getres", __syscall6(114, 1, (long)res, 0, 0, 0, 0));
    printf("res %ld %ld\n", res[0], res[1]);

    int p[2];
    pipe(p);
    long zero[2] = {0, 0};
    struct pfd f[3] = {{p[0], 1, 0}, {p[1], 4, 0}, {99, 1, 0}};
    show("ppoll empty pipe", __syscall6(73, (long)f, 3, (long)zero, 0, 8, 0));
    printf("revents %d %d %d\n", f[0].revents, f[1].revents, f[2].revents);
    write(p[1], "x", 1);
    show("ppoll with data", __syscall6(73, (long)f, 1, (long)zero, 0, 8, 0));
    printf("revents %d\n", f[0].revents);
    close(p[1]);
    char c;
    read(p[0], &c, 1);
    show("ppoll after close", __syscall6(73, (long)f, 1, 0, 0, 8, 0));
    printf("revents %d\n", f[0].revents);
    long short_wait[2] = {0, 20000000};
    int q[2];
    pipe(q);
    struct pfd g = {q[0], 1, 0};
    show("ppoll times out", __syscall6(73, (long)&g, 1, (long)short_wait, 0, 8, 0));

    unsigned long rd = 1UL << q[0], wr = 1UL << q[1];
    show("pselect6", __syscall6(72, q[1] + 1, (long)&rd, (long)&wr, 0, (long)zero, 0));
    printf("sets %lu %lu\n", rd, wr);
    unsigned long bad = 1UL << 40;
    show("pselect6 bad fd", __syscall6(72, 41, (long)&bad, 0, 0, (long)zero, 0));
    return 0;
}
