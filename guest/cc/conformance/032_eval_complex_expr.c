/* checks a deep mixed expression that needs many temporaries */
#include <stdio.h>
static int f(int x) { return x * 2 + 1; }
int main(void)
{
    int a = 3, b = 4, c = 5, d = 6;
    int r = (a + b) * (c - d) + (a * (b + (c * (d + f(a + f(b))))) - f(c)) / (d - a);
    long s = ((long)a << 40) + ((b | c) ^ (d & a)) * f(f(f(1)));
    printf("%d %ld\n", r, s);
    return 0;
}
