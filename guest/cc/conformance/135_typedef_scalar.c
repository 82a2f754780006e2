/* checks typedefs of scalar and pointer types */
#include <stdio.h>
typedef int myint;
typedef unsigned long ulong_t;
typedef char *string;
typedef myint *intptr;
int main(void)
{
    myint a = 5;
    ulong_t b = 1UL << 63;
    string s = "typed";
    intptr p = &a;
    *p *= 3;
    printf("%d %lu %s %d\n", a, b, s, (int)sizeof(ulong_t));
    return 0;
}
