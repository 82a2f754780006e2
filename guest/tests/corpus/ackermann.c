/* Deep recursion: Ackermann's function and a recursive count of calls. */
#include <stdio.h>

static long calls;

static long ack(long m, long n)
{
    calls++;
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

int main(void)
{
    for (long m = 0; m <= 2; m++)
        for (long n = 0; n <= 4; n++) {
            calls = 0;
            long r = ack(m, n);
            printf("ack(%ld,%ld)=%ld calls=%ld\n", m, n, r, calls);
        }
    calls = 0;
    printf("ack(3,4)=%ld calls=%ld\n", ack(3, 4), calls);
    printf("depth %d\n", depth(5000));
    return 0;
}
