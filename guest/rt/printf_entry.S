// printf_entry.S: the variadic entry points of the printf family, written by hand so that an
// integer program's printf never touches FP/SIMD registers.
//
// A C variadic function saves q0-q7 in its prologue whenever it is compiled with FP enabled, and
// on garm one such store brings in the VMEM unit (and clang's struct zeroing, the VEC unit). Here
// q0-q7 are saved only when the format has a floating-point conversion
// (__garm_fmt_has_float, built without FP registers, so it leaves q0-q7 intact); otherwise the
// va_list says "no FP registers saved" (__vr_offs = 0). The va_list is the AAPCS64 one:
// { __stack, __gr_top, __vr_top, __gr_offs, __vr_offs }, passed by reference (it is 32 bytes).
//
// Frame (256 bytes): [0,16) x29/x30; [16,80) x0-x7; [96,224) q0-q7; [224,256) the va_list.

.macro VARIADIC name, target, nfixed, fmtreg
    .section .text.\name, "ax", %progbits
    .globl  \name
    .type   \name, %function
    .p2align 2
\name:
    stp     x29, x30, [sp, #-256]!
    mov     x29, sp
    stp     x0, x1, [sp, #16]
    stp     x2, x3, [sp, #32]
    stp     x4, x5, [sp, #48]
    stp     x6, x7, [sp, #64]
    mov     x0, \fmtreg
    bl      __garm_fmt_has_float
    mov     w9, #0
    cbz     w0, 1f
    stp     q0, q1, [sp, #96]
    stp     q2, q3, [sp, #128]
    stp     q4, q5, [sp, #160]
    stp     q6, q7, [sp, #192]
    mov     w9, #-128
1:  add     x10, sp, #256
    str     x10, [sp, #224]             // __stack: the caller's stacked arguments
    add     x10, sp, #80
    str     x10, [sp, #232]             // __gr_top: just past the x7 slot
    add     x10, sp, #224
    str     x10, [sp, #240]             // __vr_top: just past the q7 slot
    mov     w10, #-(64 - 8 * \nfixed)
    str     w10, [sp, #248]             // __gr_offs: the variadic x registers
    str     w9, [sp, #252]              // __vr_offs
    ldp     x0, x1, [sp, #16]
    ldr     x2, [sp, #32]
    add     x\nfixed, sp, #224
    bl      \target
    ldp     x29, x30, [sp], #256
    ret
    .size   \name, . - \name
.endm

    VARIADIC printf, vprintf, 1, x0
    VARIADIC fprintf, vfprintf, 2, x1
    VARIADIC sprintf, vsprintf, 2, x1
    VARIADIC snprintf, vsnprintf, 3, x2
    VARIADIC dprintf, vdprintf, 2, x1
