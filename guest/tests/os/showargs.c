/* showargs.c: prints argv, envp and the auxiliary vector entries a static program relies on. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv, char **envp)
{
    for (int i = 0; i < argc; i++)
        printf("argv[%d] = %s\n", i, argv[i]);
    int n = 0;
    while (envp[n])
        printf("env %s\n", envp[n++]);
    unsigned long *aux = (unsigned long *)(envp + n + 1);
    for (; aux[0]; aux += 2) {
        switch (aux[0]) {
        case 3: printf("AT_PHDR %#lx\n", aux[1]); break;
        case 4: printf("AT_PHENT %lu\n", aux[1]); break;
        case 5: printf("AT_PHNUM %lu\n", aux[1]); break;
        case 6: printf("AT_PAGESZ %lu\n", aux[1]); break;
        case 9: printf("AT_ENTRY %#lx\n", aux[1]); break;
        case 23: printf("AT_SECURE %lu\n", aux[1]); break;
        case 25: printf("AT_RANDOM %s\n", aux[1] ? "present" : "missing"); break;
        case 31: printf("AT_EXECFN %s\n", (char *)aux[1]); break;
        default: break;
        }
    }
    return 0;
}
