// mmap patterns as programs use them, printed from the guest's side: MAP_FIXED at high
// addresses, hints, PROT_NONE reservations opened with mprotect, mremap growing in place and
// moving, munmap of a middle page, file mappings at an offset, MAP_FIXED over an old mapping.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

static void fill(unsigned char *p, size_t n, int seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 13 + seed);
}

static unsigned sum(const unsigned char *p, size_t n) {
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) s = s * 33 + p[i];
    return s;
}

int main(void) {
    unsigned long fixed[] = {0x7f1234560000ul, 0x555555554000ul, 0x400000000000ul};
    for (int i = 0; i < 3; i++) {
        unsigned char *p = mmap((void *)fixed[i], 3 * 4096, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("fixed %d at the address asked %d, zero %d\n", i, p == (void *)fixed[i],
               p != MAP_FAILED && p[0] == 0 && p[3 * 4096 - 1] == 0);
        if (p == MAP_FAILED) continue;
        fill(p, 3 * 4096, i);
        printf("  sum %u\n", sum(p, 3 * 4096));
        printf("  munmap middle %d\n", munmap(p + 4096, 4096));
        printf("  ends kept %u %u\n", sum(p, 4096), sum(p + 8192, 4096));
        // MAP_FIXED over the first page: fresh zeros.
        unsigned char *q = mmap(p, 4096, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("  remapped %d zero %d\n", q == p, q[100] == 0);
    }
    // PROT_NONE reservation, then rights for part of it.
    unsigned char *r = mmap(0, 16 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("reserve %d\n", r != MAP_FAILED);
    printf("mprotect %d\n", mprotect(r + 4 * 4096, 4 * 4096, PROT_READ | PROT_WRITE));
    fill(r + 4 * 4096, 4 * 4096, 5);
    printf("opened part %u\n", sum(r + 4 * 4096, 4 * 4096));
    // mremap: grow (in place or moved), shrink, contents kept.
    unsigned char *m = mmap(0, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    fill(m, 2 * 4096, 9);
    unsigned before = sum(m, 2 * 4096);
    unsigned char *g = mremap(m, 2 * 4096, 6 * 4096, MREMAP_MAYMOVE);
    printf("mremap grow ok %d kept %d tail zero %d\n", g != MAP_FAILED, sum(g, 2 * 4096) == before,
           g[5 * 4096] == 0);
    unsigned char *s = mremap(g, 6 * 4096, 4096, 0);
    printf("mremap shrink in place %d kept %d\n", s == g, sum(s, 4096) == sum(g, 4096));
    // A file mapping at an offset.
    int fd = open("/tmp/mmaps.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    unsigned char buf[3 * 4096];
    fill(buf, sizeof buf, 3);
    write(fd, buf, sizeof buf);
    unsigned char *f = mmap(0, 4096, PROT_READ, MAP_PRIVATE, fd, 4096);
    printf("file page %d\n", f != MAP_FAILED && memcmp(f, buf + 4096, 4096) == 0);
    close(fd);
    unlink("/tmp/mmaps.dat");
    return 0;
}
