/* checks ~ on int, unsigned, long and promoted char */
#include <stdio.h>
int main(void)
{
    int a = 0;
    unsigned u = 0x0F0F0F0Fu;
    unsigned long ul = 0;
    unsigned char c = 0x0F;
    printf("%d %x %lx %d %x\n", ~a, ~u, ~ul, ~c, (unsigned char)~c);
    return 0;
}
