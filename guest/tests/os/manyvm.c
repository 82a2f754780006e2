// Memory in the places a real libc puts it, for many instances at once: the heap (malloc over
// brk), the stack (a deep frame), anonymous mmap, mprotect and munmap. Built with --libc musl,
// it has ld.lld's default layout (text at 0x200000 and up); the stack lies near the top of the
// 48-bit address space. Every instance prints the same lines, checked against qemu-aarch64.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static unsigned sum(const unsigned char *p, size_t n) {
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) s = s * 31 + p[i];
    return s;
}

static unsigned deep(int n) {
    volatile unsigned char frame[1024];
    for (int i = 0; i < 1024; i++) frame[i] = (unsigned char)(i + n);
    return n == 0 ? frame[7] : frame[n % 1024] + deep(n - 1);
}

int main(void) {
    char *h = malloc(20000);
    for (int i = 0; i < 20000; i++) h[i] = (char)(i * 7);
    printf("heap %u\n", sum((unsigned char *)h, 20000));
    free(h);
    printf("stack %u\n", deep(24));
    unsigned char *m = mmap(0, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 1;
    printf("fresh mmap zero %d\n", m[0] == 0 && m[3 * 4096 - 1] == 0);
    memset(m + 4000, 0x5a, 200);
    printf("mmap %u\n", sum(m + 3900, 400));
    printf("mprotect %d munmap %d\n", mprotect(m, 4096, PROT_READ), munmap(m + 8192, 4096));
    unsigned long stack_addr = (unsigned long)&m;
    printf("stack above 4 GiB %d, code below %d\n", stack_addr > (1ul << 32), (unsigned long)main < (1ul << 32));
    return 0;
}
