/* checks signed bit-fields sign-extend and neighbouring fields stay intact */
#include <stdio.h>
struct s {
    signed int lo : 4;
    signed int mid : 6;
    unsigned int hi : 10;
};
int main(void)
{
    struct s v = { -3, 20, 1000 };
    printf("%d %d %u\n", v.lo, v.mid, v.hi);
    v.mid = -32;
    v.lo = 7;
    printf("%d %d %u\n", v.lo, v.mid, v.hi);
    return 0;
}
