// The fuzzing loop's target: reads its input from stdin and exits with the number of leading
// bytes that match the magic word given as argv[1]; with all of them matched it writes through
// a bad pointer (SIGSEGV), the crash the fuzzer looks for.
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *magic = argc > 1 ? argv[1] : "GPU!";
    char buf[64];
    long n = read(0, buf, sizeof buf);
    size_t len = strlen(magic), i = 0;
    while (i < len && i < (size_t)(n > 0 ? n : 0) && buf[i] == magic[i])
        i++;
    if (i == len)
        *(volatile int *)8 = 1;
    return (int)i;
}
