// Atomics under contention, written with the instructions themselves (not left to a libc's
// choice): 8 threads (or, with the argument "fork", 12 processes on a MAP_SHARED page) hammer
// one line with LDXR/STXR, LDXP/STXP on a 128-bit pair, LSE LDADD and CASAL, and a SWPA
// spinlock (released with STLR) guarding a plain counter. Any torn or lost update shows in the
// totals.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define NT 8
#define NP 12
#define N 10000

// All in one 64-byte line: the worst case for a per-line lock.
struct line {
    uint64_t llsc;
    uint64_t lse;
    uint64_t cas;
    uint32_t lock;
    uint32_t plain;
    uint64_t pair[2];
    int go;
} __attribute__((aligned(64)));
static struct line own;
static struct line *lp = &own;

static void llsc_add(uint64_t *p, uint64_t v) {
    uint64_t tmp;
    uint32_t fail;
    asm volatile("1: ldaxr %0, [%2]\n"
                 "   add %0, %0, %3\n"
                 "   stlxr %w1, %0, [%2]\n"
                 "   cbnz %w1, 1b\n"
                 : "=&r"(tmp), "=&r"(fail)
                 : "r"(p), "r"(v)
                 : "memory");
}

static void pair_add(uint64_t *p) {
    uint64_t a, b;
    uint32_t fail;
    asm volatile("1: ldxp %0, %1, [%3]\n"
                 "   add %0, %0, #1\n"
                 "   add %1, %1, #2\n"
                 "   stxp %w2, %0, %1, [%3]\n"
                 "   cbnz %w2, 1b\n"
                 : "=&r"(a), "=&r"(b), "=&r"(fail)
                 : "r"(p)
                 : "memory");
}

static void lse_add(uint64_t *p, uint64_t v) {
    uint64_t old;
    asm volatile(".arch_extension lse\n ldaddal %1, %0, [%2]" : "=r"(old) : "r"(v), "r"(p) : "memory");
}

static void cas_add(uint64_t *p, uint64_t v) {
    uint64_t seen = __atomic_load_n(p, __ATOMIC_RELAXED);
    for (;;) {
        uint64_t expect = seen;
        asm volatile(".arch_extension lse\n casal %0, %2, [%1]"
                     : "+r"(seen)
                     : "r"(p), "r"(expect + v)
                     : "memory");
        if (seen == expect) return;
    }
}

static void spin_lock(uint32_t *l) {
    uint32_t one = 1, old;
    do {
        asm volatile(".arch_extension lse\n swpa %w1, %w0, [%2]" : "=r"(old) : "r"(one), "r"(l) : "memory");
    } while (old);
}

static void spin_unlock(uint32_t *l) { asm volatile("stlr wzr, [%0]" : : "r"(l) : "memory"); }

static void *worker(void *arg) {
    uint64_t id = (uintptr_t)arg;
    // Start together, so the workers meet on the line.
    while (!__atomic_load_n(&lp->go, __ATOMIC_ACQUIRE)) {
    }
    for (int i = 0; i < N; i++) {
        llsc_add(&lp->llsc, 1);
        lse_add(&lp->lse, id + 1);
        cas_add(&lp->cas, 3);
        pair_add(lp->pair);
        spin_lock(&lp->lock);
        lp->plain = lp->plain + 1;
        spin_unlock(&lp->lock);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "fork")) {
        lp = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (lp == MAP_FAILED) return 1;
        for (uintptr_t i = 0; i < NP; i++) {
            if (fork() == 0) {
                worker((void *)i);
                _exit(0);
            }
        }
        __atomic_store_n(&lp->go, 1, __ATOMIC_RELEASE);
        for (int i = 0; i < NP; i++) wait(0);
    } else {
        pthread_t t[NT];
        for (uintptr_t i = 0; i < NT; i++) pthread_create(&t[i], 0, worker, (void *)i);
        __atomic_store_n(&lp->go, 1, __ATOMIC_RELEASE);
        for (int i = 0; i < NT; i++) pthread_join(t[i], 0);
    }
    printf("ldxr/stxr %llu\n", (unsigned long long)lp->llsc);
    printf("ldaddal %llu\n", (unsigned long long)lp->lse);
    printf("casal %llu\n", (unsigned long long)lp->cas);
    printf("ldxp/stxp %llu %llu\n", (unsigned long long)lp->pair[0], (unsigned long long)lp->pair[1]);
    printf("swpa lock, plain counter %u\n", lp->plain);
    return 0;
}
