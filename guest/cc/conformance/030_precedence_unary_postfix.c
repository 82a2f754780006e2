/* checks postfix binds tighter than prefix: *p++, -a[i], !f(), sizeof x + 1 */
#include <stdio.h>
static int zero(void) { return 0; }
int main(void)
{
    int arr[3] = { 10, 20, 30 };
    int *p = arr;
    int v = *p++;
    int w = -arr[2];
    int x = !zero();
    int y = (int)sizeof arr[0] + 1;
    int z = ++*p;
    printf("%d %d %d %d %d %d\n", v, w, x, y, z, arr[1]);
    return 0;
}
