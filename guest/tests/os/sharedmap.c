// MAP_SHARED anonymous memory stays shared across fork (the child's writes show in the parent,
// both ways, through a grandchild too); MAP_PRIVATE memory and the heap do not.
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

int main(void) {
    int *shared = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int *priv = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    static int data = 1;
    if (shared == MAP_FAILED || priv == MAP_FAILED) return 1;
    shared[0] = 10;
    shared[1500] = 11;
    priv[0] = 20;
    pid_t p = fork();
    if (p == 0) {
        shared[0] += 5;
        shared[1500] = 99;
        priv[0] = 77;
        data = 2;
        if (fork() == 0) {
            shared[1] = 123;
            _exit(0);
        }
        wait(0);
        printf("child sees grandchild's write %d\n", shared[1]);
        _exit(0);
    }
    waitpid(p, 0, 0);
    printf("shared %d %d %d, private %d, data %d\n", shared[0], shared[1500], shared[1], priv[0], data);
    munmap(shared, 8192);
    return 0;
}
