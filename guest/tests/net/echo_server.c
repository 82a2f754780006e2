/* echo_server.c: a TCP echo server on 127.0.0.1, driven by poll: it prints the port it got
 * (bound to port 0), serves NCLIENTS connections (concurrently: each is echoed as it reads),
 * and exits once all of them have closed. Built against a real libc. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXC 16

int main(int argc, char **argv)
{
    int want = argc > 1 ? atoi(argv[1]) : 1;
    int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (l < 0) {
        printf("socket: %s\n", strerror(errno));
        return 1;
    }
    int one = 1;
    if (setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0)
        printf("setsockopt: %s\n", strerror(errno));
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 8) != 0) {
        printf("bind/listen: %s\n", strerror(errno));
        return 1;
    }
    socklen_t len = sizeof a;
    getsockname(l, (struct sockaddr *)&a, &len);
    printf("port %d\n", ntohs(a.sin_port));
    fflush(stdout);
    int type = 0;
    len = sizeof type;
    getsockopt(l, SOL_SOCKET, SO_TYPE, &type, &len);

    struct pollfd p[MAXC + 1];
    int n = 0, accepted = 0, closed = 0;
    long bytes = 0;
    p[n++] = (struct pollfd){l, POLLIN, 0};
    while (closed < want) {
        if (poll(p, n, 60000) <= 0) {
            printf("poll timed out\n");
            return 2;
        }
        for (int i = n - 1; i >= 0; i--) {
            if (!p[i].revents)
                continue;
            if (p[i].fd == l) {
                struct sockaddr_in peer;
                socklen_t pl = sizeof peer;
                int c = accept4(l, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC);
                if (c < 0) {
                    printf("accept: %s\n", strerror(errno));
                    return 1;
                }
                setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                if (peer.sin_addr.s_addr != htonl(INADDR_LOOPBACK))
                    printf("peer not loopback\n");
                p[n++] = (struct pollfd){c, POLLIN, 0};
                accepted++;
                if (accepted == want) /* no more connections to take */
                    p[0].events = 0;
                continue;
            }
            char buf[4096];
            ssize_t r = recv(p[i].fd, buf, sizeof buf, 0);
            if (r <= 0) {
                close(p[i].fd);
                p[i] = p[--n];
                closed++;
                continue;
            }
            for (ssize_t off = 0; off < r;) {
                ssize_t w = send(p[i].fd, buf + off, r - off, MSG_NOSIGNAL);
                if (w <= 0) {
                    printf("send: %s\n", strerror(errno));
                    return 1;
                }
                off += w;
            }
            bytes += r;
        }
    }
    printf("served %d clients (type %d), %ld bytes\n", closed, type, bytes);
    return 0;
}
