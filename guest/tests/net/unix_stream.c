/* unix_stream.c: AF_UNIX stream sockets by path between processes. The parent binds PATH and
 * listens; NKIDS forked children connect, send their request in pieces, shut down their
 * writing side and read the reply; the parent serves them with poll, replying to each request
 * once it has all of it. Then names, the abstract namespace and the errors a socket gets.
 * Output never shows PATH (qemu runs it on a host path, garm in its own /tmp). */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define NKIDS 3

static socklen_t addr_of(struct sockaddr_un *a, const char *path)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    strncpy(a->sun_path, path, sizeof a->sun_path - 1);
    return sizeof *a;
}

static int kid(const char *path, int id)
{
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a;
    socklen_t al = addr_of(&a, path);
    if (connect(s, (struct sockaddr *)&a, al) != 0)
        return 10;
    for (int part = 0; part < 3; part++) {
        char m[32];
        int n = snprintf(m, sizeof m, "kid%d-part%d;", id, part);
        if (send(s, m, n, 0) != n)
            return 11;
    }
    shutdown(s, SHUT_WR);
    char buf[256];
    int got = 0;
    ssize_t r;
    while ((r = recv(s, buf + got, sizeof buf - 1 - got, 0)) > 0)
        got += r;
    buf[got] = 0;
    char want[256];
    snprintf(want, sizeof want, "KID%d-PART0;KID%d-PART1;KID%d-PART2; (%d bytes)", id, id, id,
             (int)strlen("kidN-partN;") * 3);
    return strcmp(buf, want) == 0 ? id : 12;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: unix_stream PATH\n");
        return 2;
    }
    const char *path = argv[1];
    unlink(path);
    int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    socklen_t al = addr_of(&a, path);
    if (bind(l, (struct sockaddr *)&a, al) != 0 || listen(l, NKIDS) != 0) {
        printf("bind/listen: %s\n", strerror(errno));
        return 1;
    }
    struct stat st;
    printf("socket file: %s\n", stat(path, &st) == 0 && S_ISSOCK(st.st_mode) ? "yes" : "no");
    int again = socket(AF_UNIX, SOCK_STREAM, 0);
    printf("bind again: %s\n",
           bind(again, (struct sockaddr *)&a, al) == 0 ? "ok" : strerror(errno));
    close(again);

    pid_t pids[NKIDS];
    for (int i = 0; i < NKIDS; i++) {
        pids[i] = fork();
        if (pids[i] == 0)
            _exit(kid(path, i));
    }
    struct pollfd p[NKIDS + 1];
    char req[NKIDS + 1][256];
    int used[NKIDS + 1];
    int n = 1, done = 0, accepted = 0;
    p[0] = (struct pollfd){l, POLLIN, 0};
    while (done < NKIDS) {
        if (poll(p, n, 30000) <= 0) {
            printf("poll timed out\n");
            return 3;
        }
        for (int i = n - 1; i >= 0; i--) {
            if (!p[i].revents)
                continue;
            if (i == 0) {
                struct sockaddr_un peer;
                socklen_t pl = sizeof peer;
                int c = accept(l, (struct sockaddr *)&peer, &pl);
                if (c < 0) {
                    printf("accept: %s\n", strerror(errno));
                    return 1;
                }
                if (accepted++ == 0) {
                    struct sockaddr_un me;
                    socklen_t ml = sizeof me;
                    getsockname(c, (struct sockaddr *)&me, &ml);
                    printf("peer unnamed: %s, accepted socket named as the listener: %s\n",
                           pl == sizeof(sa_family_t) ? "yes" : "no",
                           strcmp(me.sun_path, path) == 0 ? "yes" : "no");
                }
                p[n] = (struct pollfd){c, POLLIN, 0};
                used[n] = 0;
                n++;
                if (accepted == NKIDS)
                    p[0].events = 0;
                continue;
            }
            ssize_t r = recv(p[i].fd, req[i] + used[i], sizeof req[i] - 1 - used[i], 0);
            if (r > 0) {
                used[i] += r;
                continue;
            }
            /* End of the request: reply in capitals with its length, then close. */
            char out[300];
            int len = 0;
            for (int j = 0; j < used[i]; j++) {
                char ch = req[i][j];
                out[len++] = ch >= 'a' && ch <= 'z' ? ch - 32 : ch;
            }
            len += snprintf(out + len, sizeof out - len, " (%d bytes)", used[i]);
            send(p[i].fd, out, len, 0);
            close(p[i].fd);
            p[i] = p[n - 1];
            memcpy(req[i], req[n - 1], sizeof req[i]);
            used[i] = used[n - 1];
            n--;
            done++;
        }
    }
    for (int i = 0; i < NKIDS; i++) {
        int ws;
        waitpid(pids[i], &ws, 0);
        printf("kid %d: %s (status %d)\n", i, WEXITSTATUS(ws) == i ? "ok" : "FAILED",
               WEXITSTATUS(ws));
    }
    close(l);
    /* The file stays after close; nobody listens there now. */
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    printf("connect after close: %s\n",
           connect(s, (struct sockaddr *)&a, al) == 0 ? "ok" : strerror(errno));
    printf("unlink: %s\n", unlink(path) == 0 ? "ok" : strerror(errno));
    printf("connect after unlink: %s\n",
           connect(s, (struct sockaddr *)&a, al) == 0 ? "ok" : strerror(errno));
    close(s);

    /* An abstract name: no file, same connection. */
    struct sockaddr_un ab = {0};
    ab.sun_family = AF_UNIX;
    memcpy(ab.sun_path + 1, "garm-abstract-test", 18);
    socklen_t abl = offsetof(struct sockaddr_un, sun_path) + 1 + 18;
    int la = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (bind(la, (struct sockaddr *)&ab, abl) != 0 || listen(la, 1) != 0)
        printf("abstract bind: %s\n", strerror(errno));
    int ca = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    printf("abstract connect: %s\n",
           connect(ca, (struct sockaddr *)&ab, abl) == 0 ? "ok" : strerror(errno));
    int sa = accept4(la, NULL, NULL, SOCK_NONBLOCK);
    char buf[16];
    printf("nothing sent yet: %s\n", recv(sa, buf, sizeof buf, 0) < 0 ? strerror(errno) : "data");
    send(ca, "hi", 2, 0);
    ssize_t r = recv(sa, buf, sizeof buf, 0);
    struct sockaddr_un pn;
    socklen_t pnl = sizeof pn;
    getpeername(ca, (struct sockaddr *)&pn, &pnl);
    printf("abstract got %ld bytes, peer name length %d, abstract %s\n", (long)r, (int)pnl,
           pn.sun_path[0] == 0 && memcmp(pn.sun_path + 1, "garm-abstract-test", 18) == 0 ? "yes"
                                                                                       : "no");
    printf("accept with nothing waiting: %s\n",
           accept4(la, NULL, NULL, SOCK_NONBLOCK) < 0 ? strerror(errno) : "a socket");

    /* Errors. */
    int u = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un none;
    socklen_t nl = addr_of(&none, "/nonexistent-dir/sock");
    printf("connect to a missing path: %s\n",
           connect(u, (struct sockaddr *)&none, nl) == 0 ? "ok" : strerror(errno));
    printf("listen unbound: %s\n", listen(u, 1) == 0 ? "ok" : strerror(errno));
    printf("send unconnected: %s\n", send(u, "x", 1, MSG_NOSIGNAL) < 0 ? strerror(errno) : "ok");
    socklen_t gl = sizeof pn;
    printf("getpeername unconnected: %s\n",
           getpeername(u, (struct sockaddr *)&pn, &gl) == 0 ? "ok" : strerror(errno));
    printf("accept on a connected socket: %s\n",
           accept(ca, NULL, NULL) < 0 ? strerror(errno) : "a socket");
    printf("bind short address: %s\n",
           bind(u, (struct sockaddr *)&none, 1) == 0 ? "ok" : strerror(errno));
    printf("listen on a file: %s\n", listen(1, 1) == 0 ? "ok" : strerror(errno));
    printf("socket(12345, ...): %s\n", socket(12345, SOCK_STREAM, 0) < 0 ? strerror(errno) : "ok");
    return 0;
}
