/* checks array sizes given by integer constant expressions with sizeof, casts and enums */
#include <stdio.h>
enum { K = 3 };
int main(void)
{
    char a[(int)sizeof(long) * 2];
    int b[K * K + (1 << 2)];
    short c[sizeof(a) / 4 + K];
    printf("%d %d %d\n", (int)sizeof a, (int)sizeof b, (int)sizeof c);
    return 0;
}
