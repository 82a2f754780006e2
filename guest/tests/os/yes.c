/* yes.c: writes "y" lines forever, as yes(1): a closed reader must end it with SIGPIPE. With an
 * argument it writes through a dup of fd 1 (the host path instead of the shader's fast path). */
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int fd = argc > 1 ? dup(1) : 1;
    char buf[64];
    memset(buf, 0, sizeof buf);
    for (int i = 0; i < 32; i += 2) {
        buf[i] = 'y';
        buf[i + 1] = '\n';
    }
    for (;;)
        write(fd, buf, 32);
}
