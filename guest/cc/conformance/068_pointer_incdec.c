/* checks ++ and -- on pointers and walking an array both ways */
#include <stdio.h>
int main(void)
{
    int arr[5] = { 1, 2, 3, 4, 5 };
    int *p = arr;
    int sum = 0;
    while (p < arr + 5)
        sum += *p++;
    int *q = arr + 5;
    int prod = 1;
    while (q > arr)
        prod *= *--q;
    p -= 2;
    p += 1;
    printf("%d %d %d\n", sum, prod, *p);
    return 0;
}
