/* checks the value of a compound assignment expression and its single evaluation of the lvalue */
#include <stdio.h>
int main(void)
{
    int arr[4] = { 1, 2, 3, 4 };
    int i = 0;
    arr[i++] += 10;
    int v = (arr[1] *= 5);
    int w = (arr[2] <<= 2) + 1;
    printf("%d %d %d %d i=%d v=%d w=%d\n", arr[0], arr[1], arr[2], arr[3], i, v, w);
    return 0;
}
