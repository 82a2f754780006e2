/* internal.h: declarations shared between the garm runtime's own source files (not installed). */
#ifndef GARM_RT_INTERNAL_H
#define GARM_RT_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <garm.h>

/* Linux aarch64 (asm-generic) syscall numbers. */
#define SYS_openat        56
#define SYS_close         57
#define SYS_lseek         62
#define SYS_read          63
#define SYS_write         64
#define SYS_exit          93
#define SYS_exit_group    94
#define SYS_clock_gettime 113
#define SYS_kill          129
#define SYS_getpid        172
#define SYS_brk           214
#define SYS_munmap        215
#define SYS_mremap        216
#define SYS_mmap          222
#define SYS_mprotect      226

/* Map a raw syscall result to the POSIX convention (-1 and errno). */
long __garm_ret(long r);

/* Stream state: the three standard streams, and those fopen makes. */
enum { GARM_UNBUF, GARM_LINEBUF, GARM_FULLBUF };
enum { GARM_RD = 1, GARM_WR = 2, GARM_OWNED = 4 };
enum { GARM_IDLE, GARM_READING, GARM_WRITING };
struct __garm_file {
    int fd;
    int mode;           /* GARM_UNBUF / GARM_LINEBUF / GARM_FULLBUF */
    int eof, err;
    unsigned char *buf; /* writing: pending bytes; reading: read-ahead */
    size_t cap;
    size_t len;         /* writing: bytes pending; reading: bytes valid */
    size_t pos;         /* reading: next byte to return */
    int flags;          /* GARM_RD, GARM_WR: what the stream may do; GARM_OWNED: fclose frees */
    int dir;            /* what the buffer holds now: GARM_IDLE, _READING or _WRITING */
    struct __garm_file *next; /* the open streams, for exit's flush */
};

/* Append bytes to an output stream, honouring its buffering mode. */
int __garm_fwrite_bytes(FILE *f, const void *p, size_t n);
/* Flush the standard output streams (used by exit). */
void __garm_stdio_flush_all(void);

void __garm_exit_group(int status) __attribute__((noreturn));

/* A digit's value in bases up to 36, 99 for a non-digit (stdlib.c). */
int __garm_digit_value(int c);

/* The current FP rounding mode (0 nearest, 1 up, 2 down, 3 toward zero), from guest/rt/fp. */
int __garm_round_mode(void);
/* strtod (is_float 0) or strtof (1) as raw bits, so the integer-only scanf stores floats
 * without FP registers (guest/rt/fp/strtod.c). */
uint64_t __garm_strtofp_bits(const char *s, char **end, int is_float);

#ifdef GARM_HOST
/* The host build's syscall table, passed by garm's native JIT to __garm_host_entry. */
struct __garm_host {
    long (*syscall6)(long n, long a, long b, long c, long d, long e, long f);
};
extern const struct __garm_host *__garm_host;
/* Ends the guest: returns `status` from __garm_host_entry. */
void __garm_host_exit(int status) __attribute__((noreturn));
#endif
#endif
