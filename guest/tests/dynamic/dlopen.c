/* dlopen.c: loads the shared library named by argv[1] (plugin.c), finds a function and a
 * variable with dlsym, calls it, and unloads it. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: dlopen LIBRARY\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h) {
        printf("dlopen: %s\n", dlerror());
        return 1;
    }
    int (*bump)(int) = (int (*)(int))dlsym(h, "bump");
    int *counter = (int *)dlsym(h, "counter");
    if (!bump || !counter) {
        printf("dlsym: %s\n", dlerror());
        return 1;
    }
    int r = bump(2);
    printf("bump(2) = %d, counter %d\n", r, *counter);
    printf("missing symbol: %s\n", dlsym(h, "nothing_here") ? "found" : "absent");
    return dlclose(h) == 0 ? 0 : 3;
}
