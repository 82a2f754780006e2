/* misc.c: stdout redirected with dup2 (the shader's fast write path must follow it), waitid,
 * mremap, uname, getcwd; files live in directory argv[1]. */
#include <fcntl.h>
#include <garm.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct utsname_ { char f[6][65]; };

int main(int argc, char **argv)
{
    if (argc < 2 || chdir(argv[1]))
        return 2;
    char cwd[256];
    printf("cwd ends with arg: %d\n", getcwd(cwd, sizeof cwd) && !strcmp(cwd + strlen(cwd) - strlen(argv[1]) + (argv[1][0] == '/' ? 0 : 0), argv[1]));
    int fd = open("redir.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    int saved = dup(1);
    fflush(stdout);
    dup2(fd, 1);
    printf("this line goes to the file\n");
    fflush(stdout);
    write(1, "and this raw write too\n", 23);
    dup2(saved, 1);
    close(saved);
    char buf[128] = {0};
    lseek(fd, 0, SEEK_SET);
    long n = read(fd, buf, sizeof buf - 1);
    printf("file has %ld bytes: %s", n, buf);
    close(fd);
    unlink("redir.txt");

    pid_t p = fork();
    if (p == 0)
        _exit(7);
    int info[32] = {0};
    long r = __syscall6(95, 1, p, (long)info, 4 /* WEXITED */, 0, 0);
    printf("waitid %ld signo %d code %d pid-match %d status %d\n", r, info[0], info[2], info[4] == p, info[6]);

    long a = __syscall6(222, 0, 8192, 3, 0x22, -1, 0);
    memset((void *)a, 0x5a, 8192);
    long b = __syscall6(216, a, 8192, 65536, 1, 0, 0);
    printf("mremap moved %d, kept bytes %d\n", b != a, ((unsigned char *)b)[8191] == 0x5a);

    struct utsname_ u;
    __syscall6(160, (long)&u, 0, 0, 0, 0, 0);
    printf("uname %s %s\n", u.f[0], u.f[4]);
    return 0;
}
