/* files.c: file round trips in directory argv[1]: create, write, seek, read, rename, unlink,
 * mkdir/rmdir, stat, and a sorted getdents listing. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void list(const char *dir)
{
    DIR *d = opendir(dir);
    char *names[32];
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 32)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            names[n++] = strdup(e->d_name);
    if (d)
        closedir(d);
    qsort(names, n, sizeof names[0], cmp);
    printf("listing:");
    for (int i = 0; i < n; i++)
        printf(" %s", names[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    if (chdir(argv[1])) {
        printf("chdir failed %d\n", errno);
        return 1;
    }
    int fd = open("a.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    printf("open %d\n", fd >= 0);
    printf("write %ld\n", (long)write(fd, "hello, files\n", 13));
    printf("lseek %ld\n", (long)lseek(fd, 7, SEEK_SET));
    char buf[32] = {0};
    printf("read %ld [%s]\n", (long)read(fd, buf, sizeof buf - 1), buf);
    printf("lseek end %ld\n", (long)lseek(fd, 0, SEEK_END));
    struct stat st;
    printf("fstat %d size %ld reg %d\n", fstat(fd, &st), st.st_size, S_ISREG(st.st_mode));
    close(fd);
    printf("excl %d errno %d\n", open("a.txt", O_CREAT | O_EXCL | O_WRONLY, 0644), errno);
    fd = open("a.txt", O_WRONLY | O_APPEND);
    write(fd, "more\n", 5);
    close(fd);
    printf("mkdir %d\n", mkdir("sub", 0755));
    printf("rename %d\n", rename("a.txt", "sub/b.txt"));
    printf("stat old %d errno %d\n", stat("a.txt", &st), errno);
    printf("stat new %d size %ld\n", stat("sub/b.txt", &st), st.st_size);
    fd = open("sub/b.txt", O_RDONLY);
    memset(buf, 0, sizeof buf);
    printf("reread %ld [%s]\n", (long)read(fd, buf, sizeof buf - 1), buf);
    close(fd);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        close(open(name, O_CREAT | O_WRONLY, 0600));
    }
    list(".");
    list("sub");
    printf("rmdir nonempty %d errno %d\n", rmdir("sub"), errno);
    printf("unlink %d %d\n", unlink("sub/b.txt"), rmdir("sub"));
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        unlink(name);
    }
    list(".");
    printf("open missing %d errno %d\n", open("nope", O_RDONLY), errno);
    return 0;
}
