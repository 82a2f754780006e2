/* checks &, |, ^ and ~ on ints and unsigneds */
#include <stdio.h>
int main(void)
{
    unsigned a = 0xF0F0u, b = 0x0FF0u;
    int c = -1, d = 0x1234;
    printf("%x %x %x %x\n", a & b, a | b, a ^ b, ~a);
    printf("%d %d %d %d\n", c & d, c | d, c ^ d, ~d);
    return 0;
}
