/* checks comparing structs member-wise via a helper taking pointers to const */
#include <stdio.h>
struct date {
    int y, m, d;
};
static int cmp(const struct date *a, const struct date *b)
{
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    return (a->d > b->d) - (a->d < b->d);
}
int main(void)
{
    struct date a = { 2024, 5, 17 }, b = { 2024, 5, 3 }, c = { 1999, 12, 31 };
    printf("%d %d %d %d\n", cmp(&a, &b), cmp(&b, &a), cmp(&c, &a), cmp(&a, &a));
    return 0;
}
