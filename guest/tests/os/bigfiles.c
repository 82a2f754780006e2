/* bigfiles.c: grows a 128 MiB file, unlinks it, and again, eight times (in the directory
 * argv[1]): a filesystem must give an unlinked file's memory back. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <garm.h>

int main(int argc, char **argv)
{
    char path[256];
    snprintf(path, sizeof path, "%s/big", argc > 1 ? argv[1] : "/tmp");
    for (int i = 0; i < 8; i++) {
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || __syscall6(46, fd, 128L << 20, 0, 0, 0, 0) != 0) {
            printf("round %d failed\n", i);
            return 1;
        }
        __syscall6(68, fd, (long)"x", 1, (128L << 20) - 1, 0, 0);
        close(fd);
        unlink(path);
    }
    printf("8 rounds of 128 MiB\n");
    return 0;
}
