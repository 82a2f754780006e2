/* checks C99 variable-length arrays with sizes known only at run time */
#include <stdio.h>
static int sum_vla(int n, int a[n])
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
int main(void)
{
    int total = 0;
    for (int n = 1; n <= 5; n++) {
        int a[n];
        for (int i = 0; i < n; i++)
            a[i] = i + n;
        total += sum_vla(n, a) * 100 + (int)sizeof a;
    }
    printf("%d\n", total);
    return 0;
}
