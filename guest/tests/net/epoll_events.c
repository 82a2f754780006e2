/* epoll_events.c: epoll over pipes, a socketpair and an eventfd shared with forked children:
 * level- and edge-triggered reports, EPOLLONESHOT re-armed with EPOLL_CTL_MOD, a timeout that
 * passes, closed fds leaving the interest list, eventfd counter and semaphore semantics, and
 * the errors epoll_ctl gives. Output does not depend on how the processes interleave. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NKIDS 3

int main(void)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    int efd = eventfd(0, EFD_CLOEXEC);
    int rd[NKIDS];
    pid_t pids[NKIDS];
    for (int i = 0; i < NKIDS; i++) {
        int p[2];
        pipe(p);
        pids[i] = fork();
        if (pids[i] == 0) {
            close(p[0]);
            char msg[64];
            for (int j = 0; j <= i; j++) {
                int n = snprintf(msg, sizeof msg, "kid %d message %d;", i, j);
                write(p[1], msg, n);
            }
            uint64_t one = 1;
            write(efd, &one, 8); /* tell the parent through the shared eventfd */
            _exit(0);
        }
        close(p[1]);
        rd[i] = p[0];
        struct epoll_event e = {.events = EPOLLIN, .data.u64 = 100 + i};
        epoll_ctl(ep, EPOLL_CTL_ADD, rd[i], &e);
    }
    struct epoll_event e = {.events = EPOLLIN, .data.u64 = 7};
    epoll_ctl(ep, EPOLL_CTL_ADD, efd, &e);

    long bytes[NKIDS] = {0};
    int open_pipes = NKIDS, signals = 0, waits = 0;
    while (open_pipes > 0 || signals < NKIDS) {
        struct epoll_event got[8];
        int n = epoll_wait(ep, got, 8, 30000);
        waits++;
        if (n <= 0) {
            printf("epoll_wait: %d %s\n", n, strerror(errno));
            return 1;
        }
        for (int k = 0; k < n; k++) {
            if (got[k].data.u64 == 7) {
                uint64_t v;
                if (read(efd, &v, 8) == 8)
                    signals += (int)v;
                continue;
            }
            int i = (int)(got[k].data.u64 - 100);
            char buf[256];
            ssize_t m = read(rd[i], buf, sizeof buf);
            if (m > 0) {
                bytes[i] += m;
            } else {
                /* (A child forked later may still hold this read end: take it off the list
                 * explicitly, since closing only our fd would leave it watched.) */
                epoll_ctl(ep, EPOLL_CTL_DEL, rd[i], NULL);
                close(rd[i]);
                open_pipes--;
            }
        }
    }
    for (int i = 0; i < NKIDS; i++)
        printf("kid %d: %ld bytes\n", i, bytes[i]);
    printf("eventfd signals: %d\n", signals);
    for (int i = 0; i < NKIDS; i++)
        waitpid(pids[i], NULL, 0);

    /* Nothing is watched but the eventfd, which is empty: the timeout passes. */
    struct epoll_event got[4];
    printf("timeout: %d\n", epoll_wait(ep, got, 4, 30));

    /* Closing the only fd of a watched pipe end takes it off the list. */
    int q[2];
    pipe(q);
    struct epoll_event qe = {.events = EPOLLIN, .data.u64 = 9};
    epoll_ctl(ep, EPOLL_CTL_ADD, q[0], &qe);
    close(q[1]);
    int before = epoll_wait(ep, got, 4, 0);
    close(q[0]);
    printf("hung-up pipe: %d, after close: %d\n", before, epoll_wait(ep, got, 4, 0));

    /* Level-triggered reports again; edge-triggered only on a new edge. */
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    struct epoll_event lt = {.events = EPOLLIN, .data.u64 = 1};
    epoll_ctl(ep, EPOLL_CTL_ADD, sv[0], &lt);
    write(sv[1], "x", 1);
    int a = epoll_wait(ep, got, 4, 0), b = epoll_wait(ep, got, 4, 0);
    printf("level: %d then %d\n", a, b);
    struct epoll_event et = {.events = EPOLLIN | EPOLLET, .data.u64 = 2};
    epoll_ctl(ep, EPOLL_CTL_MOD, sv[0], &et);
    a = epoll_wait(ep, got, 4, 0);
    b = epoll_wait(ep, got, 4, 0);
    printf("edge: %d then %d\n", a, b);
    char c;
    read(sv[0], &c, 1);
    write(sv[1], "y", 1);
    printf("edge after new data: %d\n", epoll_wait(ep, got, 4, 0));
    struct epoll_event os = {.events = EPOLLIN | EPOLLONESHOT, .data.u64 = 3};
    epoll_ctl(ep, EPOLL_CTL_MOD, sv[0], &os);
    a = epoll_wait(ep, got, 4, 0);
    b = epoll_wait(ep, got, 4, 0);
    epoll_ctl(ep, EPOLL_CTL_MOD, sv[0], &os);
    int c2 = epoll_wait(ep, got, 4, 0);
    printf("oneshot: %d then %d, re-armed %d (data %llu)\n", a, b, c2,
           (unsigned long long)got[0].data.u64);
    /* Hang-up is reported unasked. */
    epoll_ctl(ep, EPOLL_CTL_MOD, sv[0], &lt);
    read(sv[0], &c, 1);
    close(sv[1]);
    a = epoll_wait(ep, got, 4, 0);
    printf("hangup: %d events %s\n", a,
           a == 1 && (got[0].events & EPOLLHUP) ? "with EPOLLHUP" : "without EPOLLHUP");

    /* eventfd: counter and semaphore. */
    int sem = eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK);
    uint64_t v = 0;
    int r1 = (int)read(sem, &v, 8);
    printf("semaphore read %d -> %llu\n", r1, (unsigned long long)v);
    read(sem, &v, 8);
    read(sem, &v, 8);
    printf("empty semaphore: %s\n", read(sem, &v, 8) < 0 ? strerror(errno) : "data");
    printf("short read: %s\n", read(sem, &v, 4) < 0 ? strerror(errno) : "data");
    v = UINT64_MAX;
    printf("write max: %s\n", write(sem, &v, 8) < 0 ? strerror(errno) : "ok");
    v = UINT64_MAX - 1;
    write(sem, &v, 8);
    v = 1;
    printf("overflow: %s\n", write(sem, &v, 8) < 0 ? strerror(errno) : "ok");

    /* Errors. */
    int fresh = eventfd(0, 0);
    struct epoll_event x = {.events = EPOLLIN};
    printf("add twice: %s\n",
           epoll_ctl(ep, EPOLL_CTL_ADD, efd, &x) == 0 ? "ok" : strerror(errno));
    printf("mod missing: %s\n",
           epoll_ctl(ep, EPOLL_CTL_MOD, fresh, &x) == 0 ? "ok" : strerror(errno));
    printf("del missing: %s\n",
           epoll_ctl(ep, EPOLL_CTL_DEL, fresh, NULL) == 0 ? "ok" : strerror(errno));
    printf("watch itself: %s\n",
           epoll_ctl(ep, EPOLL_CTL_ADD, ep, &x) == 0 ? "ok" : strerror(errno));
    printf("not an epoll: %s\n",
           epoll_ctl(fresh, EPOLL_CTL_ADD, efd, &x) == 0 ? "ok" : strerror(errno));
    int f = open("/proc/self/exe", O_RDONLY);
    printf("a regular file: %s\n",
           epoll_ctl(ep, EPOLL_CTL_ADD, f, &x) == 0 ? "ok" : strerror(errno));
    printf("bad fd: %s\n", epoll_ctl(ep, EPOLL_CTL_ADD, 999, &x) == 0 ? "ok" : strerror(errno));
    printf("maxevents 0: %s\n", epoll_wait(ep, got, 0, 0) < 0 ? strerror(errno) : "ok");
    printf("bad flags: %s\n", epoll_create1(1) < 0 ? strerror(errno) : "ok");
    printf("waits: %s\n", waits >= 1 ? "some" : "none");
    return 0;
}
