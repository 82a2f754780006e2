/* reloc.c: absolute pointers in initialised data, the kind a static PIE must relocate itself
 * before main: a table of strings and functions, a pointer to a global, a pointer into the middle
 * of an array, and a constructor (run from init_array, itself a table of absolute pointers). */
#include <stdio.h>

static int counter = 40;
static int *counter_ptr = &counter;
static const char *const names[] = {"alpha", "beta", "gamma"};
static int squares[] = {0, 1, 4, 9, 16, 25};
static int *middle = &squares[3];

static int twice(int x) { return 2 * x; }
static int plus3(int x) { return x + 3; }
static int (*const ops[])(int) = {twice, plus3};

__attribute__((constructor)) static void bump(void) { *counter_ptr += 2; }

int main(void)
{
    for (int i = 0; i < 3; i++)
        printf("%s %d\n", names[i], ops[i % 2](i + 10));
    printf("counter %d middle %d next %d\n", *counter_ptr, *middle, middle[1]);
    return *counter_ptr == 42 ? 0 : 1;
}
