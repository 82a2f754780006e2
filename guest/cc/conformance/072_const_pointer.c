/* checks const-qualified pointers and pointers to const */
#include <stdio.h>
int main(void)
{
    int a = 5, b = 6;
    const int *pc = &a;
    int *const cp = &b;
    const int *const cc = &a;
    *cp = 60;
    pc = &b;
    int sum = *pc + *cc;
    printf("%d %d %d\n", *pc, *cp, sum);
    return 0;
}
