// The lives of threads against a real libc: a signal sent to one thread runs its handler on
// that thread, fork from a thread, timed waits that time out, semaphores, once, rwlocks, and
// how a process ends: `exit` from any thread ends them all (argument "exit"), the main thread's
// pthread_exit leaves the others running (argument "mainexit").
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t tid(void) { return (pid_t)syscall(SYS_gettid); }

// The realtime clock `ms` milliseconds from now (the absolute timeouts take).
static struct timespec in_ms(long ms) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += ms * 1000 * 1000;
    if (t.tv_nsec >= 1000000000) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000;
    }
    return t;
}

static _Atomic pid_t handled_on;
static void on_usr1(int s) {
    (void)s;
    atomic_store(&handled_on, tid());
}

static _Atomic pid_t target_tid;
static _Atomic int stop;
static void *spinner(void *arg) {
    (void)arg;
    atomic_store(&target_tid, tid());
    while (!atomic_load(&stop) && !atomic_load(&handled_on)) {
    }
    return 0;
}

static void *forker(void *arg) {
    (void)arg;
    fflush(stdout);
    pid_t c = fork();
    if (c == 0) {
        printf("child of a thread: getpid is not the parent's %d\n", getpid() != getppid());
        fflush(stdout);
        _exit(5);
    }
    int st;
    waitpid(c, &st, 0);
    return (void *)(long)WEXITSTATUS(st);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Atomic int once_runs;
static void init_once(void) { atomic_fetch_add(&once_runs, 1); }

static sem_t sem;
static _Atomic int sem_got;
static void *sem_waiter(void *arg) {
    (void)arg;
    pthread_once(&once, init_once);
    sem_wait(&sem);
    atomic_fetch_add(&sem_got, 1);
    return 0;
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static long shared_counter;
static void *rw_user(void *arg) {
    long id = (long)arg;
    long seen = 0;
    for (int i = 0; i < 200; i++) {
        if (i % 4 == 0) {
            pthread_rwlock_wrlock(&rw);
            shared_counter += id;
            pthread_rwlock_unlock(&rw);
        } else {
            pthread_rwlock_rdlock(&rw);
            seen += shared_counter >= 0;
            pthread_rwlock_unlock(&rw);
        }
    }
    return (void *)seen;
}

static void *exiter(void *arg) {
    (void)arg;
    exit(7);
}

static void *sleeper(void *arg) {
    (void)arg;
    for (;;) pause();
}

static void *survivor(void *arg) {
    (void)arg;
    struct timespec d = {0, 20 * 1000 * 1000};
    nanosleep(&d, 0);
    printf("survivor: still running after main's pthread_exit\n");
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv) {
    pthread_t t[4];
    if (argc > 1 && !strcmp(argv[1], "exit")) {
        pthread_create(&t[0], 0, sleeper, 0);
        pthread_create(&t[1], 0, exiter, 0);
        pthread_join(t[0], 0);
        return 1;
    }
    if (argc > 1 && !strcmp(argv[1], "mainexit")) {
        pthread_create(&t[0], 0, survivor, 0);
        pthread_exit(0);
    }

    signal(SIGUSR1, on_usr1);
    pthread_create(&t[0], 0, spinner, 0);
    while (!atomic_load(&target_tid)) {
    }
    pthread_kill(t[0], SIGUSR1);
    pthread_join(t[0], 0);
    printf("signal: handled on the target thread %d, not main %d\n",
           atomic_load(&handled_on) == atomic_load(&target_tid), atomic_load(&handled_on) != tid());

    void *r;
    pthread_create(&t[0], 0, forker, 0);
    pthread_join(t[0], &r);
    printf("fork from a thread: child status %ld\n", (long)r);

    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    struct timespec until = in_ms(30);
    pthread_mutex_lock(&m);
    int e = pthread_cond_timedwait(&cv, &m, &until);
    pthread_mutex_unlock(&m);
    printf("timedwait: %s\n", e == ETIMEDOUT ? "ETIMEDOUT" : strerror(e));

    sem_init(&sem, 0, 0);
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, sem_waiter, 0);
    for (int i = 0; i < 3; i++) sem_post(&sem);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    printf("semaphore: %d got it, once ran %d\n", atomic_load(&sem_got), atomic_load(&once_runs));
    struct timespec soon = in_ms(10);
    int tw = sem_timedwait(&sem, &soon);
    printf("sem_timedwait: %d %s\n", tw, tw ? (errno == ETIMEDOUT ? "ETIMEDOUT" : "other") : "");

    long total = 0;
    for (long i = 0; i < 4; i++) pthread_create(&t[i], 0, rw_user, (void *)(i + 1));
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], &r);
        total += (long)r;
    }
    printf("rwlock: counter %ld, reads %ld\n", shared_counter, total);
    return 0;
}
