/* checks chains of casts through narrow types */
#include <stdio.h>
int main(void)
{
    int a = 0x1FF;
    int b = (int)(signed char)(unsigned char)a;
    int c = (int)(unsigned short)(short)-1;
    long d = (long)(int)(unsigned)0xFFFFFFFFu;
    unsigned long e = (unsigned long)(unsigned)(int)-1;
    printf("%d %d %ld %lu\n", b, c, d, e);
    return 0;
}
