// POSIX threads against a real libc (glibc or musl): atomics from 8 threads, a mutex and
// condition variable producer/consumer, a barrier, thread-local storage, join values, detached
// threads, pthread_exit from a thread. Every line printed is deterministic.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NT 8
#define ITERS 20000

static _Atomic uint64_t sum64;
static _Atomic uint32_t sum32;
static uint64_t cas_sum;
static uint64_t locked_sum;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *adder(void *arg) {
    uint64_t id = (uint64_t)(uintptr_t)arg;
    for (int i = 0; i < ITERS; i++) {
        atomic_fetch_add(&sum64, id + 1);
        atomic_fetch_add_explicit(&sum32, 1, memory_order_relaxed);
        uint64_t old = __atomic_load_n(&cas_sum, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&cas_sum, &old, old + 3, 1, __ATOMIC_SEQ_CST,
                                            __ATOMIC_RELAXED)) {
        }
        if (i % 16 == 0) {
            pthread_mutex_lock(&lock);
            locked_sum += 2;
            pthread_mutex_unlock(&lock);
        }
    }
    return (void *)(uintptr_t)(id * 10);
}

// A bounded queue: producers and consumers wait on condition variables.
#define QCAP 4
static int queue[QCAP], qhead, qlen;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
#define ITEMS 300

static void *producer(void *arg) {
    int base = (int)(intptr_t)arg;
    for (int i = 1; i <= ITEMS; i++) {
        pthread_mutex_lock(&qlock);
        while (qlen == QCAP) pthread_cond_wait(&not_full, &qlock);
        queue[(qhead + qlen) % QCAP] = base + i;
        qlen++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&qlock);
    }
    return 0;
}

static void *consumer(void *arg) {
    long *total = arg;
    for (int i = 0; i < ITEMS; i++) {
        pthread_mutex_lock(&qlock);
        while (qlen == 0) pthread_cond_wait(&not_empty, &qlock);
        int v = queue[qhead];
        qhead = (qhead + 1) % QCAP;
        qlen--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&qlock);
        *total += v;
    }
    return 0;
}

static pthread_barrier_t barrier;
static int phase_seen[NT][3];
static _Atomic int phase_count[3];

static void *phased(void *arg) {
    int id = (int)(intptr_t)arg;
    for (int p = 0; p < 3; p++) {
        atomic_fetch_add(&phase_count[p], 1);
        pthread_barrier_wait(&barrier);
        // After the barrier every thread has counted this phase.
        phase_seen[id][p] = atomic_load(&phase_count[p]);
        pthread_barrier_wait(&barrier);
    }
    return 0;
}

static __thread int tls_value = 7;
static __thread char tls_name[16];

static void *tls_worker(void *arg) {
    int id = (int)(intptr_t)arg;
    int before = tls_value;
    tls_value = id * 100;
    snprintf(tls_name, sizeof tls_name, "worker-%d", id);
    for (volatile int i = 0; i < 1000; i++) {
    }
    char *r = malloc(64);
    snprintf(r, 64, "%s before=%d after=%d", tls_name, before, tls_value);
    return r;
}

static _Atomic int detached_done;
static void *detached(void *arg) {
    (void)arg;
    atomic_fetch_add(&detached_done, 1);
    return 0;
}

static void *exits_early(void *arg) {
    (void)arg;
    pthread_exit((void *)(uintptr_t)42);
    return 0;
}

static void *tid_check(void *arg) {
    pid_t *out = arg;
    out[0] = getpid();
    out[1] = (pid_t)syscall(SYS_gettid);
    return 0;
}

int main(void) {
    pthread_t t[NT];
    for (uintptr_t i = 0; i < NT; i++) pthread_create(&t[i], 0, adder, (void *)i);
    uint64_t joined = 0;
    for (int i = 0; i < NT; i++) {
        void *r;
        pthread_join(t[i], &r);
        joined += (uintptr_t)r;
    }
    printf("atomics: sum64=%llu sum32=%u cas=%llu locked=%llu joined=%llu\n",
           (unsigned long long)sum64, (unsigned)sum32, (unsigned long long)cas_sum,
           (unsigned long long)locked_sum, (unsigned long long)joined);

    pthread_t p[2], c[2];
    long totals[2] = {0, 0};
    pthread_create(&p[0], 0, producer, (void *)0);
    pthread_create(&p[1], 0, producer, (void *)(intptr_t)1000);
    pthread_create(&c[0], 0, consumer, &totals[0]);
    pthread_create(&c[1], 0, consumer, &totals[1]);
    for (int i = 0; i < 2; i++) pthread_join(p[i], 0);
    for (int i = 0; i < 2; i++) pthread_join(c[i], 0);
    printf("queue: consumed total=%ld left=%d\n", totals[0] + totals[1], qlen);

    pthread_barrier_init(&barrier, 0, NT);
    for (intptr_t i = 0; i < NT; i++) pthread_create(&t[i], 0, phased, (void *)i);
    for (int i = 0; i < NT; i++) pthread_join(t[i], 0);
    int ok = 1;
    for (int i = 0; i < NT; i++)
        for (int p2 = 0; p2 < 3; p2++) ok &= phase_seen[i][p2] == NT;
    printf("barrier: %s\n", ok ? "every thread saw every phase complete" : "BROKEN");
    pthread_barrier_destroy(&barrier);

    for (intptr_t i = 0; i < 4; i++) pthread_create(&t[i], 0, tls_worker, (void *)(i + 1));
    for (int i = 0; i < 4; i++) {
        char *r;
        pthread_join(t[i], (void **)&r);
        printf("tls: %s\n", r);
        free(r);
    }
    printf("tls: main still %d\n", tls_value);

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < 3; i++) {
        pthread_t d;
        pthread_create(&d, &attr, detached, 0);
    }
    while (atomic_load(&detached_done) < 3) sched_yield();
    printf("detached: %d ran\n", atomic_load(&detached_done));

    void *r;
    pthread_create(&t[0], 0, exits_early, 0);
    pthread_join(t[0], &r);
    printf("pthread_exit: %lu\n", (unsigned long)(uintptr_t)r);

    pid_t ids[2];
    pthread_create(&t[0], 0, tid_check, ids);
    pthread_join(t[0], 0);
    printf("ids: same pid %d, own tid %d\n", ids[0] == getpid(), ids[1] != getpid());
    return 0;
}
