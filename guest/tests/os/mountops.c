/* mountops.c: creates names in the directory argv[1] (a mount on garm, the host directory under
 * qemu): mkdir, symlink, open(O_CREAT|O_EXCL), then the same names again (EEXIST each). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <garm.h>

/* Raw syscall result as "value errno". */
static void show(const char *what, long r)
{
    printf("%s: %ld errno %ld\n", what, r < 0 ? -1 : r, r < 0 ? -r : 0);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    char d[256], l[256], f[256];
    snprintf(d, sizeof d, "%s/newdir", argv[1]);
    snprintf(l, sizeof l, "%s/newlink", argv[1]);
    snprintf(f, sizeof f, "%s/newfile", argv[1]);
    for (int round = 0; round < 2; round++) {
        show("mkdir", __syscall6(34, -100, (long)d, 0755, 0, 0, 0));
        show("symlink", __syscall6(36, (long)"newdir", -100, (long)l, 0, 0, 0));
        long fd = __syscall6(56, -100, (long)f, O_RDWR | O_CREAT | O_EXCL, 0644, 0, 0);
        show("open excl", fd < 0 ? fd : 0);
        if (fd >= 0)
            close((int)fd);
    }
    return 0;
}
