/* checks C99 static inline functions */
#include <stdio.h>
static inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static inline unsigned rotl(unsigned x, int r) { return (x << r) | (x >> (32 - r)); }
inline static int twice(int x) { return x + x; }
int main(void)
{
    printf("%d %d %d %x\n", clamp(-5, 0, 10), clamp(50, 0, 10), clamp(7, 0, 10), rotl(0x80000001u, 4));
    printf("%d\n", twice(twice(5)));
    return 0;
}
