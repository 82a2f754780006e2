/* macros.h: included by macros.c ("..." from the includer's directory), guarded. */
#ifndef MACROS_H
#define MACROS_H
#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define GREETING "from the header"
long sys_write(long fd, char *p, long n) { return __syscall(64, fd, p, n); }
#endif
