/* checks global initialisers computed by constant expressions */
#include <stdio.h>
enum { N = 4 };
int a = 3 * 4 + 5;
long b = 1L << 40;
unsigned c = -1;
int d = sizeof(long) * N;
int e = (10 > 3) ? 100 : 200;
char f = 'A' + 2;
int arr[N * 2] = { N, N + 1 };
int main(void)
{
    printf("%d %ld %u %d\n", a, b, c, d);
    printf("%d %c %d %d\n", e, f, arr[1], (int)sizeof arr);
    return 0;
}
