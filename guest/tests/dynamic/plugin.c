/* plugin.c: a shared library for dlopen.c (built with -shared -fPIC): a function that calls
 * into libc and a global the caller reads through dlsym. */
#include <stdio.h>

int counter = 40;

int bump(int x)
{
    counter += x;
    printf("plugin: bump(%d), counter %d\n", x, counter);
    return counter * 2;
}
