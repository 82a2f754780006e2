// Loads and stores that span a page boundary, of every size and unit (integer, pair, SIMD
// register, multi-register, structure, console write), at every offset near the boundary:
// each prints a hash of what it read and of the memory after it wrote. Under garm the two pages
// of an access lie in unrelated frames.
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned char bss[3 * 4096] __attribute__((aligned(4096)));
static unsigned char *buf = bss;
static volatile double fp_on = 1.0; // the file uses V registers: built with FP

static unsigned long h;
static void mix(unsigned long v) { h = (h ^ v) * 0x100000001b3ul; }

static void fill(void) {
    for (int i = 4096 - 128; i < 4096 + 128; i++) buf[i] = (unsigned char)(i * 7 + 3 + (i >> 8));
}

static void mix_mem(void) {
    for (int i = 4096 - 64; i < 4096 + 64; i++) mix(buf[i]);
}

static void accesses(int first, int last) {
    for (int off = first; off <= last; off++) {
        unsigned char *p = buf + off;
        unsigned long a, b;
        h = 0xcbf29ce484222325ul;
        fill();
        __asm__ volatile("ldrb %w0, [%1]" : "=r"(a) : "r"(p) : "memory"); mix(a);
        __asm__ volatile("ldrh %w0, [%1]" : "=r"(a) : "r"(p) : "memory"); mix(a);
        __asm__ volatile("ldr %w0, [%1]" : "=r"(a) : "r"(p) : "memory"); mix(a);
        __asm__ volatile("ldrsw %0, [%1]" : "=r"(a) : "r"(p) : "memory"); mix(a);
        __asm__ volatile("ldr %0, [%1]" : "=r"(a) : "r"(p) : "memory"); mix(a);
        __asm__ volatile("ldp %0, %1, [%2]" : "=&r"(a), "=&r"(b) : "r"(p) : "memory"); mix(a); mix(b);
        __asm__ volatile("ldp %w0, %w1, [%2]" : "=&r"(a), "=&r"(b) : "r"(p) : "memory"); mix(a); mix(b);
        __asm__ volatile("ldr q0, [%2]\n fmov %0, d0\n mov %1, v0.d[1]" : "=r"(a), "=r"(b) : "r"(p) : "v0", "memory"); mix(a); mix(b);
        __asm__ volatile("ld1 {v0.16b, v1.16b}, [%2]\n fmov %0, d1\n mov %1, v1.d[1]" : "=r"(a), "=r"(b) : "r"(p) : "v0", "v1", "memory"); mix(a); mix(b);
        __asm__ volatile("ld2 {v0.8b, v1.8b}, [%2]\n fmov %0, d0\n fmov %1, d1" : "=r"(a), "=r"(b) : "r"(p) : "v0", "v1", "memory"); mix(a); mix(b);
        __asm__ volatile("ld1 {v0.s}[1], [%2]\n mov %0, v0.d[0]\n mov %1, v0.d[1]" : "=r"(a), "=r"(b) : "r"(p) : "v0", "memory"); mix(a); mix(b);
        printf("%d load %016lx\n", off, h);

        unsigned long v = 0x0123456789abcdeful + (unsigned long)off;
        fill();
        __asm__ volatile("strh %w0, [%1]" :: "r"(v), "r"(p) : "memory"); mix_mem();
        __asm__ volatile("str %w0, [%1, #1]" :: "r"(v), "r"(p) : "memory"); mix_mem();
        __asm__ volatile("str %0, [%1, #2]" :: "r"(~v), "r"(p) : "memory"); mix_mem();
        __asm__ volatile("stp %0, %1, [%2]" :: "r"(v), "r"(v * 3), "r"(p) : "memory"); mix_mem();
        __asm__ volatile("fmov d2, %0\n mov v2.d[1], %1\n str q2, [%2]" :: "r"(v * 5), "r"(v * 7), "r"(p) : "v2", "memory"); mix_mem();
        __asm__ volatile("fmov d2, %0\n fmov d3, %1\n st2 {v2.8b, v3.8b}, [%2]" :: "r"(v * 11), "r"(v * 13), "r"(p) : "v2", "v3", "memory"); mix_mem();
        __asm__ volatile("fmov d2, %0\n mov v2.d[1], %1\n st1 {v2.h}[5], [%2]" :: "r"(v * 17), "r"(v * 19), "r"(p) : "v2", "memory"); mix_mem();
        printf("%d store %016lx\n", off, h);
    }
}

int main(int argc, char **argv) {
    int first = argc > 1 ? atoi(argv[1]) : 4096 - 40;
    int last = argc > 2 ? atoi(argv[2]) : 4096 + 4;
    accesses(first, last);
    // Two pages of a mapping whose second page number ends in 32 zero bits.
    buf = mmap((void *)0x0ffffffff000ul, 2 * 4096, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (buf == MAP_FAILED) return 2;
    accesses(4096 - 20, 4096);
    buf = bss;
    // The console write of a buffer that spans the boundary.
    memcpy(buf + 4096 - 5, "across\n", 7);
    write(1, buf + 4096 - 5, 7);
    return fp_on == 1.0 ? 0 : 1;
}
