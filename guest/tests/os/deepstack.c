/* deepstack.c: recursion without end: the stack outgrows its limit. Linux stops it with SIGSEGV
 * at the guard gap below the stack; nothing below (heap, mappings) is overwritten first. */
#include <stdio.h>
#include <stdlib.h>

static volatile char *heap;

static int down(int n)
{
    volatile char frame[512];
    frame[0] = (char)n;
    if (heap[0] != 'h') {
        printf("heap overwritten at depth %d\n", n);
        exit(1);
    }
    return down(n + 1) + frame[0];
}

int main(void)
{
    heap = malloc(64);
    heap[0] = 'h';
    printf("recursing\n");
    fflush(stdout);
    return down(0);
}
