/* checks modifying a struct through a pointer parameter */
#include <stdio.h>
struct counter {
    int count;
    long total;
};
static void add(struct counter *c, int v)
{
    c->count++;
    c->total += v;
}
int main(void)
{
    struct counter c = { 0, 0 };
    for (int i = 1; i <= 10; i++)
        add(&c, i * i);
    printf("%d %ld\n", c.count, c.total);
    return 0;
}
