// SIGSEGV and SIGBUS reach the program's handler with si_code and si_addr, as Linux delivers
// them: a write to a read-only page (SEGV_ACCERR: the handler makes it writable and returns, so
// the write happens), a read of an unmapped page (SEGV_MAPERR: the handler jumps out), a store
// into the program's own text, and a misaligned atomic (SIGBUS, BUS_ADRALN).
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf back;
static char *page;
static volatile int fix;
static volatile long seen_code, seen_off, seen_sig;

static void on_fault(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    seen_sig = sig;
    seen_code = si->si_code;
    seen_off = (char *)si->si_addr - page;
    if (fix) {
        mprotect(page, 4096, PROT_READ | PROT_WRITE);
        return;
    }
    siglongjmp(back, 1);
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, 0);
    sigaction(SIGBUS, &sa, 0);
    page = mmap(0, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    fix = 1;
    page[100] = 42;
    printf("read-only write: sig %ld code %ld offset %ld, now %d\n", seen_sig, seen_code, seen_off, page[100]);

    fix = 0;
    munmap(page + 4096, 4096);
    if (!sigsetjmp(back, 1)) {
        volatile char c = page[4096 + 8];
        (void)c;
        printf("no fault?\n");
    }
    printf("unmapped read: sig %ld code %ld offset %ld\n", seen_sig, seen_code, seen_off);

    if (!sigsetjmp(back, 1)) {
        *(volatile int *)(void *)main = 0;
        printf("no fault?\n");
    }
    printf("text write: sig %ld code %ld\n", seen_sig, seen_code);

    if (!sigsetjmp(back, 1)) {
        long v = 0;
        __asm__ volatile("ldadd %0, %0, [%1]" : "+r"(v) : "r"(page + 3) : "memory");
        printf("no fault?\n");
    }
    printf("misaligned atomic: sig %ld code %ld offset %ld\n", seen_sig, seen_code, seen_off);
    return 0;
}
