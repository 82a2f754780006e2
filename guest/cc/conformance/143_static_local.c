/* checks a static local keeps its value between calls and is initialised once */
#include <stdio.h>
static int next_id(void)
{
    static int id = 100;
    return id++;
}
static int *counter(void)
{
    static int c;
    c++;
    return &c;
}
int main(void)
{
    next_id();
    next_id();
    printf("%d\n", next_id());
    counter();
    int *p = counter();
    *p += 10;
    printf("%d\n", *counter());
    return 0;
}
