/* checks pointer to uintptr_t and back gives the same pointer */
#include <stdio.h>
#include <stdint.h>
int main(void)
{
    int arr[3] = { 4, 5, 6 };
    uintptr_t u = (uintptr_t)&arr[0];
    u += sizeof(int);
    int *p = (int *)u;
    printf("%d %d\n", *p, p == &arr[1]);
    printf("%d\n", (int)((uintptr_t)&arr[2] - (uintptr_t)&arr[0]));
    return 0;
}
