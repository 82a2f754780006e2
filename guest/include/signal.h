/* signal.h: signal numbers, kill(), and handlers through rt_sigaction. */
#ifndef _SIGNAL_H
#define _SIGNAL_H
#include <sys/types.h>
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGABRT 6
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)
int kill(pid_t pid, int sig);
int raise(int sig);
/* Installs `h` for `sig` (SA_RESTORER with the runtime's sigreturn stub); returns the old one. */
sighandler_t signal(int sig, sighandler_t h);
#endif
