/* checks trailing commas in enum lists and initialiser lists */
#include <stdio.h>
enum dir { NORTH, EAST, SOUTH, WEST, };
struct p {
    int a, b;
};
int main(void)
{
    int a[] = { 1, 2, 3, };
    struct p s = { 4, 5, };
    struct p ps[] = { { 1, 2, }, { 3, 4, }, };
    printf("%d %d %d %d %d\n", (int)(sizeof a / sizeof a[0]), WEST, s.b,
           (int)(sizeof ps / sizeof ps[0]), ps[1].a);
    return 0;
}
