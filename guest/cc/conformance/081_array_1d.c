/* checks a one-dimensional local array: store, load, sum */
#include <stdio.h>
int main(void)
{
    int a[10];
    for (int i = 0; i < 10; i++)
        a[i] = i * i;
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += a[i];
    printf("%d %d %d\n", s, a[9], a[0]);
    return 0;
}
