/* poll_pipeline.c: a pipeline driven by poll and select. NPROD producer children write
 * different amounts in different chunk sizes into their own pipes; the parent multiplexes
 * them with poll (until every pipe hangs up), forwarding everything into a consumer child
 * through a non-blocking pipe it also polls for room; the consumer sums what it gets and
 * answers through a socketpair the parent waits on with select. Output: what each stage
 * counted, which must not depend on how the processes interleave. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NPROD 4

static unsigned char byte_at(int id, long i) { return (unsigned char)(i * 7 + id * 31 + (i >> 8)); }

static void producer(int id, int w)
{
    long total = 20000L * (id + 1) + 123 * id;
    int chunk = 100 + 900 * id;
    unsigned char buf[4096];
    for (long done = 0; done < total;) {
        int n = (int)(total - done < chunk ? total - done : chunk);
        for (int j = 0; j < n; j++)
            buf[j] = byte_at(id, done + j);
        if (write(w, buf, n) != n)
            _exit(9);
        done += n;
    }
    _exit(0);
}

static void consumer(int r, int answer)
{
    unsigned char buf[8192];
    long bytes = 0;
    unsigned long sum = 0;
    ssize_t n;
    while ((n = read(r, buf, sizeof buf)) > 0) {
        for (ssize_t j = 0; j < n; j++)
            sum += buf[j];
        bytes += n;
    }
    char msg[64];
    int len = snprintf(msg, sizeof msg, "%ld %lu", bytes, sum);
    write(answer, msg, len);
    _exit(0);
}

int main(void)
{
    int in[NPROD];
    pid_t pids[NPROD + 1];
    for (int i = 0; i < NPROD; i++) {
        int p[2];
        pipe(p);
        pids[i] = fork();
        if (pids[i] == 0) {
            close(p[0]);
            producer(i, p[1]);
        }
        close(p[1]);
        in[i] = p[0];
    }
    int down[2], sv[2];
    pipe(down);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    pids[NPROD] = fork();
    if (pids[NPROD] == 0) {
        close(down[1]);
        close(sv[0]);
        for (int i = 0; i < NPROD; i++)
            close(in[i]);
        consumer(down[0], sv[1]);
    }
    close(down[0]);
    close(sv[1]);
    fcntl(down[1], F_SETFL, O_NONBLOCK);

    long got[NPROD] = {0};
    unsigned long sum[NPROD] = {0};
    int bad[NPROD] = {0};
    static unsigned char pend[1 << 20];
    long pend_len = 0, pend_off = 0, forwarded = 0;
    int open_in = NPROD, polls = 0, eagain = 0;
    while (open_in > 0 || pend_off < pend_len) {
        struct pollfd p[NPROD + 1];
        int idx[NPROD + 1], n = 0;
        for (int i = 0; i < NPROD; i++)
            if (in[i] >= 0 && pend_len - pend_off < (1 << 19)) {
                p[n] = (struct pollfd){in[i], POLLIN, 0};
                idx[n++] = i;
            }
        if (pend_off < pend_len) {
            p[n] = (struct pollfd){down[1], POLLOUT, 0};
            idx[n++] = -1;
        }
        int r = poll(p, n, 30000);
        polls++;
        if (r <= 0) {
            printf("poll: %d %s\n", r, strerror(errno));
            return 1;
        }
        for (int k = 0; k < n; k++) {
            if (!p[k].revents)
                continue;
            if (idx[k] < 0) {
                ssize_t w = write(down[1], pend + pend_off, pend_len - pend_off);
                if (w < 0 && errno == EAGAIN)
                    eagain++;
                else if (w > 0) {
                    pend_off += w;
                    forwarded += w;
                }
                if (pend_off == pend_len)
                    pend_off = pend_len = 0;
                continue;
            }
            int i = idx[k];
            unsigned char buf[4096];
            ssize_t m = read(in[i], buf, sizeof buf);
            if (m <= 0) {
                close(in[i]);
                in[i] = -1;
                open_in--;
                continue;
            }
            for (ssize_t j = 0; j < m; j++) {
                bad[i] += buf[j] != byte_at(i, got[i] + j);
                sum[i] += buf[j];
            }
            got[i] += m;
            if (pend_off > 0) {
                memmove(pend, pend + pend_off, pend_len - pend_off);
                pend_len -= pend_off;
                pend_off = 0;
            }
            memcpy(pend + pend_len, buf, m);
            pend_len += m;
        }
    }
    close(down[1]);
    unsigned long all = 0;
    long all_bytes = 0;
    for (int i = 0; i < NPROD; i++) {
        printf("producer %d: %ld bytes, sum %lu, %d out of order\n", i, got[i], sum[i], bad[i]);
        all += sum[i];
        all_bytes += got[i];
    }
    /* The consumer's answer, waited for with select (and a timeout that must not pass). */
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(sv[0], &rd);
    struct timeval tv = {30, 0};
    int s = select(sv[0] + 1, &rd, NULL, NULL, &tv);
    char ans[64] = {0};
    read(sv[0], ans, sizeof ans - 1);
    long cb;
    unsigned long cs;
    sscanf(ans, "%ld %lu", &cb, &cs);
    printf("select %d; consumer: %ld bytes, sum %lu: %s; forwarded %ld\n", s, cb, cs,
           cb == all_bytes && cs == all ? "agrees" : "DIFFERS", forwarded);
    /* A short timeout on an empty pipe passes. */
    int e[2];
    pipe(e);
    struct pollfd pe = {e[0], POLLIN, 0};
    printf("empty poll: %d\n", poll(&pe, 1, 20));
    FD_ZERO(&rd);
    FD_SET(e[0], &rd);
    tv = (struct timeval){0, 20000};
    printf("empty select: %d\n", select(e[0] + 1, &rd, NULL, NULL, &tv));
    int ok = 1;
    for (int i = 0; i <= NPROD; i++) {
        int ws;
        waitpid(pids[i], &ws, 0);
        ok &= WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    }
    printf("children: %s\n", ok ? "all exited 0" : "FAILED");
    (void)polls;
    (void)eagain;
    return 0;
}
