/* checks swapping through pointer parameters */
#include <stdio.h>
static void swap(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}
static void swapp(char **a, char **b)
{
    char *t = *a;
    *a = *b;
    *b = t;
}
int main(void)
{
    int x = 1, y = 2;
    char *s = "first", *t = "second";
    swap(&x, &y);
    swapp(&s, &t);
    printf("%d %d %s %s\n", x, y, s, t);
    return 0;
}
