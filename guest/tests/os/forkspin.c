/* forkspin.c: a chain of forks where every process spins forever: --max-insns must bound the
 * whole tree, not each process. */
#include <unistd.h>

int main(void)
{
    for (int i = 0; i < 6; i++)
        if (fork() < 0)
            break;
    for (volatile unsigned long n = 0;; n++)
        ;
}
