/* checks void * conversion to and from object pointers without casts */
#include <stdio.h>
int main(void)
{
    int x = 1234;
    void *v = &x;
    int *ip = v;
    long y = 99;
    v = &y;
    long *lp = v;
    unsigned char *bytes = (unsigned char *)&x;
    printf("%d %ld %d\n", *ip, *lp, bytes[0] + bytes[1] * 256);
    return 0;
}
