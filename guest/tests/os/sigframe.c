/* sigframe.c: an SA_SIGINFO handler sees Linux's frame: siginfo (signal, code, sender), a
 * ucontext whose mcontext holds the interrupted registers and an FP/SIMD record, and changes it
 * makes are what rt_sigreturn restores (here: the x0 that kill() returns). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <garm.h>

struct sigcontext_ {
    unsigned long fault_address, regs[31], sp, pc, pstate;
    unsigned char reserved[4096] __attribute__((aligned(16)));
};
struct ucontext_ {
    unsigned long flags, link;
    struct { unsigned long sp; int flags; unsigned long size; } stack;
    unsigned long sigmask;
    unsigned char unused[120];
    struct sigcontext_ mc __attribute__((aligned(16)));
};
struct siginfo_ { int signo, errno_, code, pad; int pid; unsigned uid; };

void __garm_sigreturn(void);
static int got_signo, got_code, sender_ok, magic_ok;
static unsigned long seen_x19;

static void handler(int sig, struct siginfo_ *si, void *ctx)
{
    struct ucontext_ *uc = ctx;
    got_signo = si->signo;
    got_code = si->code;
    sender_ok = si->pid == getpid();
    seen_x19 = uc->mc.regs[19];
    unsigned magic = *(unsigned *)uc->mc.reserved, size = ((unsigned *)uc->mc.reserved)[1];
    magic_ok = magic == 0x46508001 && size == 528;
    uc->mc.regs[0] = 4242; /* what the interrupted kill() returns */
    (void)sig;
}

int main(void)
{
    struct { void *h; unsigned long flags; void (*restorer)(void); unsigned long mask; } sa = {
        (void *)handler, 0x04000000UL | 4 /* SA_RESTORER | SA_SIGINFO */, __garm_sigreturn, 0};
    printf("sigaction %ld\n", __syscall6(134, 10, (long)&sa, 0, 8, 0, 0));
    register unsigned long x19 __asm__("x19") = 0x1919;
    __asm__ volatile("" : "+r"(x19));
    long r = __syscall6(129, getpid(), 10, 0, 0, 0, 0);
    __asm__ volatile("" : "+r"(x19));
    printf("kill returned %ld\n", r);
    printf("signo %d code %d sender %d fpsimd record %d x19 %#lx\n", got_signo, got_code, sender_ok,
           magic_ok, seen_x19);
    printf("sizeof ucontext mcontext offset %lu\n", (unsigned long)__builtin_offsetof(struct ucontext_, mc));
    return 0;
}
