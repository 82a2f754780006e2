/* checks a sieve of Eratosthenes over a global char array */
#include <stdio.h>
#include <string.h>
#define N 10000
static unsigned char composite[N + 1];
int main(void)
{
    memset(composite, 0, sizeof composite);
    int count = 0;
    long sum = 0;
    for (int i = 2; i <= N; i++) {
        if (composite[i])
            continue;
        count++;
        sum += i;
        for (int j = i * i; j <= N; j += i)
            composite[j] = 1;
    }
    printf("%d %ld\n", count, sum);
    return 0;
}
