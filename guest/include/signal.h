/* signal.h: signal numbers and kill(). */
#ifndef _SIGNAL_H
#define _SIGNAL_H
#include <sys/types.h>
#define SIGINT 2
#define SIGKILL 9
#define SIGSEGV 11
#define SIGPIPE 13
#define SIGTERM 15
#define SIGCHLD 17
int kill(pid_t pid, int sig);
#endif
