/* checks a union initialiser sets the first member, and union assignment */
#include <stdio.h>
union num {
    int i;
    unsigned char c[4];
};
int main(void)
{
    union num a = { 0x01020304 };
    union num b;
    b = a;
    printf("%d %d %x\n", b.c[0], b.c[3], b.i);
    return 0;
}
