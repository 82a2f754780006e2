/* checks atoi, strtol with bases and end pointer, and abs/labs */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    char *end;
    long v = strtol("  -1234xyz", &end, 10);
    printf("%d %d %ld %s\n", atoi("42"), atoi("-17abc"), v, end);
    printf("%ld %ld %ld\n", strtol("ff", NULL, 16), strtol("0x1F", NULL, 0), strtol("777", NULL, 8));
    printf("%d %ld\n", abs(-5), labs(-5000000000L));
    return 0;
}
