/* checks local aggregate initialisers with non-constant expressions */
#include <stdio.h>
static int sq(int x) { return x * x; }
struct p {
    int a, b;
};
int main(void)
{
    int n = 4;
    int arr[3] = { n, sq(n), n + sq(n + 1) };
    struct p s = { arr[2] - 1, sq(arr[0]) };
    printf("%d %d %d %d %d\n", arr[0], arr[1], arr[2], s.a, s.b);
    return 0;
}
