/* procself.c: /proc as programs read it: the command line and environment, status (name, pids,
 * umask), the memory map (the stack, the program's code), meminfo, uptime, and the /etc files
 * a root without a sysroot has. Prints what it checked, not what varies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[1 << 16];

static long slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long n = (long)fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return n;
}

/* The value after "key:\t" in buf, as a number. */
static long field(const char *key)
{
    char *p = strstr(buf, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static int in_region(unsigned long addr, const char *perms_prefix, const char *name)
{
    char *line = buf;
    while (line && *line) {
        unsigned long lo, hi;
        char perms[8] = {0}, rest[256] = {0};
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255[^\n]", &lo, &hi, perms, rest) >= 3 &&
            addr >= lo && addr < hi)
            return strncmp(perms, perms_prefix, strlen(perms_prefix)) == 0 &&
                   (!name || strstr(rest, name) != NULL);
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long n = slurp("/proc/self/cmdline");
    printf("cmdline:");
    for (long i = 0; i < n; i += (long)strlen(buf + i) + 1)
        printf(" [%s]", buf + i);
    printf(" (%d args)\n", argc);
    n = slurp("/proc/self/environ");
    int found = 0;
    for (long i = 0; i < n; i += (long)strlen(buf + i) + 1)
        found |= strcmp(buf + i, "PROCSELF_TEST=yes") == 0;
    printf("environ has PROCSELF_TEST: %s\n", found ? "yes" : "no");

    umask(027);
    slurp("/proc/self/status");
    char name[32] = {0};
    sscanf(strstr(buf, "Name:") + 5, "%31s", name);
    const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    printf("status: name %s, pid %s, ppid %s, umask %s, threads %ld\n",
           strncmp(name, base, 15) == 0 ? "ok" : name,
           field("\nPid:\t") == getpid() ? "ok" : "differs",
           field("\nPPid:\t") == getppid() ? "ok" : "differs",
           strstr(buf, "Umask:\t0027") ? "ok" : "differs", field("\nThreads:\t"));

    int local = 0;
    slurp("/proc/self/maps");
    printf("maps: stack %s, code %s, data %s\n",
           in_region((unsigned long)&local, "rw", "[stack]") ? "ok" : "wrong",
           in_region((unsigned long)&main, "r-x", NULL) ? "ok" : "wrong",
           in_region((unsigned long)buf, "rw", NULL) ? "ok" : "wrong");

    slurp("/proc/meminfo");
    printf("meminfo: total %s, free <= total %s\n", field("MemTotal:") > 0 ? "ok" : "wrong",
           field("MemFree:") <= field("MemTotal:") ? "ok" : "wrong");
    slurp("/proc/uptime");
    double up = -1;
    sscanf(buf, "%lf", &up);
    printf("uptime: %s\n", up >= 0 ? "ok" : "wrong");
    struct stat st;
    stat("/proc/self/status", &st);
    printf("status is a regular file: %s\n", S_ISREG(st.st_mode) ? "yes" : "no");
    printf("written: %s\n", fopen("/proc/self/status", "w") ? "opened" : "refused");

    int root = slurp("/etc/passwd") > 0 && strncmp(buf, "root:x:0:0:", 11) == 0;
    int lo = slurp("/etc/hosts") > 0 && strstr(buf, "127.0.0.1") != NULL;
    printf("/etc: passwd %s, hosts %s, group %s\n", root ? "ok" : "wrong", lo ? "ok" : "wrong",
           slurp("/etc/group") > 0 ? "ok" : "wrong");
    return 0;
}
