/* socketpair.c: an AF_UNIX stream pair between a parent and a forked child: requests and
 * replies both ways, send/recv with flags, poll on the socket, shutdown for end of file, and
 * the errors a bad call gets. Built against a real libc (the garm runtime has no sockets). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(int s)
{
    char buf[64];
    for (;;) {
        ssize_t n = read(s, buf, sizeof buf - 1);
        if (n <= 0)
            break;
        buf[n] = 0;
        char reply[80];
        int len = snprintf(reply, sizeof reply, "pong<%s>", buf);
        if (send(s, reply, (size_t)len, MSG_NOSIGNAL) != len)
            _exit(3);
    }
    /* The parent shut its writing side: end of file. Say goodbye and close. */
    write(s, "bye", 3);
    _exit(0);
}

int main(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        printf("socketpair: %s\n", strerror(errno));
        return 1;
    }
    struct stat st;
    fstat(sv[0], &st);
    printf("is a socket: %d\n", S_ISSOCK(st.st_mode));
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        child(sv[1]);
    }
    close(sv[1]);
    int s = sv[0];
    struct pollfd p = {.fd = s, .events = POLLIN | POLLOUT};
    printf("poll before: %d, in %d, out %d\n", poll(&p, 1, 0), !!(p.revents & POLLIN),
           !!(p.revents & POLLOUT));
    for (int i = 1; i <= 3; i++) {
        char req[16], buf[64];
        int len = snprintf(req, sizeof req, "ping %d", i);
        send(s, req, (size_t)len, 0);
        p.events = POLLIN;
        poll(&p, 1, -1);
        ssize_t n = recv(s, buf, sizeof buf - 1, 0);
        buf[n > 0 ? n : 0] = 0;
        printf("%s\n", buf);
    }
    char buf[16];
    errno = 0;
    ssize_t n = recv(s, buf, sizeof buf, MSG_DONTWAIT);
    printf("nothing waiting: %zd %s\n", n, errno == EAGAIN ? "EAGAIN" : strerror(errno));
    shutdown(s, SHUT_WR);
    n = read(s, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = 0;
    printf("after shutdown: %s\n", buf);
    int status;
    waitpid(pid, &status, 0);
    printf("child exit %d\n", WEXITSTATUS(status));
    n = read(s, buf, sizeof buf);
    printf("peer gone, read: %zd\n", n);
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
    printf("send to a closed peer: %zd %s\n", send(s, "x", 1, 0), errno == EPIPE ? "EPIPE" : strerror(errno));
    errno = 0;
    printf("not a socket: %d %s\n", (int)send(1, "x", 1, 0), errno == ENOTSOCK ? "ENOTSOCK" : strerror(errno));
    int bad[2];
    errno = 0;
    printf("AF_INET pair: %d %s\n", socketpair(AF_INET, SOCK_STREAM, 0, bad),
           errno == EOPNOTSUPP || errno == EAFNOSUPPORT ? "refused" : strerror(errno));
    return 0;
}
