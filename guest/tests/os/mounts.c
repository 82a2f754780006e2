/* mounts.c: writes into a read-write mount and tries to write into a read-only one. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    int fd = open("/rw/out.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    printf("rw open %s\n", fd >= 0 ? "ok" : "failed");
    write(fd, "written by the guest\n", 21);
    close(fd);
    fd = open("/ro/in.txt", O_RDONLY);
    char buf[64] = {0};
    read(fd, buf, sizeof buf - 1);
    close(fd);
    printf("ro read [%s]\n", strtok(buf, "\n"));
    errno = 0;
    int w = open("/ro/new.txt", O_CREAT | O_WRONLY, 0644);
    printf("ro create %d errno %d (EROFS=30)\n", w, errno);
    errno = 0;
    w = open("/ro/in.txt", O_WRONLY);
    printf("ro write %d errno %d\n", w, errno);
    errno = 0;
    printf("escape %d errno %d\n", open("/rw/../../../etc/shadow", O_RDONLY), errno);
    return 0;
}
