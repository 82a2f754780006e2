/* checks assignments used as conditions in if and while */
#include <stdio.h>
int main(void)
{
    int data[] = { 3, 1, 4, 1, 5, 0, 9 };
    int i = 0, v, sum = 0;
    while ((v = data[i++]) != 0)
        sum += v;
    int x;
    if ((x = sum - 14))
        printf("nonzero %d\n", x);
    else
        printf("zero %d sum=%d i=%d\n", x, sum, i);
    return 0;
}
