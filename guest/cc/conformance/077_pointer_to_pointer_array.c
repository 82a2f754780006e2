/* checks an array of pointers and a pointer to pointer walking it */
#include <stdio.h>
int main(void)
{
    int a = 1, b = 2, c = 3;
    int *ptrs[3] = { &c, &a, &b };
    int **pp = ptrs;
    int sum = 0;
    for (int i = 0; i < 3; i++)
        sum = sum * 10 + **pp++;
    *ptrs[0] = 9;
    printf("%d %d\n", sum, c);
    return 0;
}
