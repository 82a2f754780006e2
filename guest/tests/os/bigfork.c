// Fork of a process that touched 64 MiB (copy-on-write: the fork copies no page): the child
// writes into the memory, the parent must not see it; then the parent writes, the child (gone)
// must not matter. Prints checksums both sides compute.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#define MB (1024 * 1024)

static unsigned long sum(const unsigned char *p, size_t n) {
    unsigned long s = 0;
    for (size_t i = 0; i < n; i += 4096) s = s * 31 + p[i] + p[i + 4095];
    return s;
}

int main(int argc, char **argv) {
    size_t n = (argc > 1 ? (size_t)atoi(argv[1]) : 64) * MB;
    unsigned char *m = malloc(n);
    if (!m) { printf("malloc failed\n"); return 1; }
    for (size_t i = 0; i < n; i += 4096) { m[i] = (unsigned char)(i >> 12); m[i + 4095] = 7; }
    printf("parent before %lx\n", sum(m, n));
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        for (size_t i = 0; i < n; i += 8 * 4096) m[i] = 0xee;
        printf("child after its writes %lx\n", sum(m, n));
        return 0;
    }
    int st = 0;
    waitpid(p, &st, 0);
    printf("parent after the child %lx (status %d)\n", sum(m, n), st);
    m[0] = 1;
    printf("parent after its write %lx\n", sum(m, n));
    return 0;
}
