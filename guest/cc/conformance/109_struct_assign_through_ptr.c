/* checks struct assignment through pointers and array elements (*p = *q, a[i] = a[j]) */
#include <stdio.h>
struct s {
    int a;
    char tag[6];
    long b;
};
int main(void)
{
    struct s arr[3] = { { 1, "one", 10 }, { 2, "two", 20 }, { 3, "three", 30 } };
    struct s *p = &arr[0], *q = &arr[2];
    *p = *q;
    arr[1] = arr[0];
    q->a = 99;
    printf("%d %s %ld / %d %s / %d\n", arr[0].a, arr[0].tag, arr[0].b, arr[1].a, arr[1].tag, arr[2].a);
    return 0;
}
