/* checks global arrays, zero-initialised and initialised */
#include <stdio.h>
int zeros[100];
int primes[] = { 2, 3, 5, 7, 11, 13 };
long table[3][2] = { { 1, 2 }, { 3, 4 }, { 5, 6 } };
int main(void)
{
    int s = 0;
    for (int i = 0; i < 100; i++)
        s += zeros[i];
    zeros[50] = 7;
    printf("%d %d %d %ld %d\n", s, zeros[50], primes[5], table[2][1], (int)(sizeof primes / sizeof *primes));
    return 0;
}
