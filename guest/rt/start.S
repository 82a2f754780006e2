// start.S: process entry point; Linux-style initial stack -> __garm_start(sp).
//
// On entry sp points at argc, followed by argv[] (NULL-terminated), envp[]
// (NULL-terminated) and the auxiliary vector. sp is 16-byte aligned (AAPCS64).

    .section .text._start, "ax", %progbits
    .globl  _start
    .type   _start, %function
_start:
    mov     x29, #0         // terminate the frame-pointer chain for debuggers/unwinders
    mov     x30, #0
    mov     x0, sp          // long *sp
    bl      __garm_start    // never returns
    udf     #0              // unreachable: trap loudly if it ever does
    .size   _start, . - _start
