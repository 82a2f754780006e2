// The gdb stub's test program (tests/gdb.rs drives it under gdb-multiarch): a breakpoint in a
// function of known arguments, a loop to step through, output, a known exit status, and with
// two arguments a fault.
#include <stdio.h>

volatile long sink;

__attribute__((noinline)) long mix(long a, long b) {
    long r = a * 31 + b;
    for (int i = 0; i < 3; i++)
        r = r * 7 + i;
    sink = r;
    return r;
}

int main(int argc, char **argv) {
    (void)argv;
    long v = mix(argc + 6, 9);
    printf("mix=%ld\n", v);
    if (argc > 2)
        *(volatile int *)16 = 1; // a fault for gdb to see
    return (int)(v & 0x3f);
}
