// The gdb stub's V registers (tests/gdb.rs): doubles in d0/d1 at a breakpoint, the result in d0
// after `finish`, FPSR and FPCR.
#include <stdio.h>

__attribute__((noinline)) double scale(double a, double b) { return a * 1.5 + b; }

int main(void) {
    double r = scale(2.0, 0.25);
    printf("%f\n", r);
    return 0;
}
