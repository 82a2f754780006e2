/* launch.c: runs argv[1] with the arguments after it, so one garm run can start a different
 * program in each instance (tests/common's garm_batch: a batch of programs costs about its
 * slowest one rather than the sum of all). */
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
    if (argc < 2)
        return 127;
    execve(argv[1], argv + 1, environ);
    return 127;
}
