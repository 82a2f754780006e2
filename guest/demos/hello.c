/* hello.c: the smallest demo: a greeting, then any command-line arguments. */
#include <stdio.h>

int main(int argc, char **argv)
{
    printf("Hello from AArch64 on the GPU!\n");
    for (int i = 1; i < argc; i++)
        printf("argv[%d] = %s\n", i, argv[i]);
    return 0;
}
