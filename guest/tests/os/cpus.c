/* cpus.c: how many CPUs a program sees, three ways that must agree (sched_getaffinity,
 * sysconf, /proc/cpuinfo), and the features /proc/cpuinfo lists. Built against glibc, whose
 * sysconf reads /sys/devices/system/cpu/{online,possible}. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    sched_getaffinity(0, sizeof s, &s);
    printf("affinity %d\n", CPU_COUNT(&s));
    printf("online %ld conf %ld\n", sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF));
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) {
        printf("no /proc/cpuinfo\n");
        return 1;
    }
    char line[256], feat[256] = "";
    int procs = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "processor", 9))
            procs++;
        if (!strncmp(line, "Features", 8))
            strcpy(feat, line);
    }
    fclose(f);
    printf("cpuinfo processors %d\n%s", procs, feat);
    return 0;
}
