/* checks abstract declarators (type names) for pointers to functions and arrays in sizeof and casts */
#include <stdio.h>
static int neg(int x) { return -x; }
int main(void)
{
    int arr[4] = { 1, 2, 3, 4 };
    void *vf = (void *)0;
    int (*pf)(int) = (int (*)(int))neg;
    int (*pa)[4] = (int (*)[4])arr;
    printf("%d %d %d\n", (int)sizeof(int (*)(int)), (int)sizeof(int[3]), (int)sizeof(int *[5]));
    printf("%d %d %d %d\n", pf(7), (*pa)[3], (int)sizeof(int (*)[4]), vf == 0);
    return 0;
}
