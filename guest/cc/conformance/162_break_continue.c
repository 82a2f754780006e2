/* checks break and continue in while, do-while and for loops */
#include <stdio.h>
int main(void)
{
    int s = 0;
    for (int i = 0; i < 20; i++) {
        if (i % 3 == 0)
            continue;
        if (i > 14)
            break;
        s += i;
    }
    int j = 0, t = 0;
    while (1) {
        j++;
        if (j & 1)
            continue;
        if (j > 10)
            break;
        t += j;
    }
    int k = 0, u = 0;
    do {
        k++;
        if (k == 2)
            continue;
        u += k;
    } while (k < 5);
    printf("%d %d %d\n", s, t, u);
    return 0;
}
