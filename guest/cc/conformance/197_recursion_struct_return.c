/* checks recursion returning structs by value (fast Fibonacci pair) */
#include <stdio.h>
struct pair {
    long a, b;
};
static struct pair fibp(int n)
{
    if (n == 0) {
        struct pair p = { 0, 1 };
        return p;
    }
    struct pair h = fibp(n / 2);
    long c = h.a * (2 * h.b - h.a);
    long d = h.a * h.a + h.b * h.b;
    struct pair r;
    if (n % 2) {
        r.a = d;
        r.b = c + d;
    } else {
        r.a = c;
        r.b = d;
    }
    return r;
}
int main(void)
{
    printf("%ld %ld\n", fibp(50).a, fibp(90).a);
    return 0;
}
