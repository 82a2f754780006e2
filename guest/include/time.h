/* time.h: minimal clocks (clock_gettime, time) for the garm guest runtime. */
#ifndef _TIME_H
#define _TIME_H
#include <sys/types.h>

struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
typedef int clockid_t;

#define CLOCK_REALTIME  0
#define CLOCK_MONOTONIC 1
#define CLOCKS_PER_SEC  1000000L

int clock_gettime(clockid_t clk, struct timespec *ts);
time_t time(time_t *t);
clock_t clock(void);
#endif
