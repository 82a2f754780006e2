/* checks bit-field members store and truncate their values */
#include <stdio.h>
struct flags {
    unsigned a : 1;
    unsigned b : 3;
    unsigned c : 4;
    unsigned d : 8;
};
int main(void)
{
    struct flags f;
    f.a = 1;
    f.b = 5;
    f.c = 17;
    f.d = 255;
    printf("%u %u %u %u\n", f.a, f.b, f.c, f.d);
    f.b += 4;
    printf("%u %d\n", f.b, (int)sizeof(struct flags));
    return 0;
}
