/* instance.c: per-instance work chosen by env GARM_INSTANCE / GARM_INSTANCES (defaults 0 / 1). */
#include <stdio.h>
#include <stdlib.h>

/* With an argument K, instance K exits with status 3 (to check how statuses combine). */
int main(int argc, char **argv)
{
    const char *idx_s = getenv("GARM_INSTANCE");
    const char *cnt_s = getenv("GARM_INSTANCES");
    if (!idx_s) idx_s = "0";
    if (!cnt_s) cnt_s = "1";
    unsigned long idx = strtoul(idx_s, NULL, 10);
    /* Instances do different amounts of work, so they finish at different times. */
    unsigned long sum = 0, n = 1000 * (idx + 1);
    for (unsigned long i = 0; i < n; i++)
        sum += i * i;
    printf("instance %s of %s: sum=%lu\n", idx_s, cnt_s, sum);
    if (argc > 1 && strtoul(argv[1], NULL, 10) == idx)
        return 3;
    return 0;
}
