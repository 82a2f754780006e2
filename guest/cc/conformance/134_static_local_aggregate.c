/* checks static local arrays and structs with initialisers persist across calls */
#include <stdio.h>
struct st {
    int n;
    const char *name;
};
static int step(void)
{
    static int fib[10] = { 1, 1 };
    static int k = 2;
    static struct st s = { 0, "calls" };
    s.n++;
    fib[k] = fib[k - 1] + fib[k - 2];
    return fib[k++] * 100 + s.n;
}
int main(void)
{
    for (int i = 0; i < 5; i++)
        printf("%d ", step());
    printf("\n");
    return 0;
}
