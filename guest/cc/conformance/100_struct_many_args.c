/* checks struct arguments mixed with scalar arguments in one call */
#include <stdio.h>
struct v2 {
    int x, y;
};
struct v3 {
    long x, y, z;
};
static long mix(int a, struct v2 p, long b, struct v3 q, char c, struct v2 r)
{
    return a + p.x * 10 + p.y * 100 + b + q.x + q.y * 2 + q.z * 3 + c + r.x - r.y;
}
int main(void)
{
    struct v2 p = { 1, 2 }, r = { 50, 7 };
    struct v3 q = { 1000, 2000, 3000 };
    printf("%ld\n", mix(1, p, 100000, q, 'A', r));
    return 0;
}
