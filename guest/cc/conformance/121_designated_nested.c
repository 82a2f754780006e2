/* checks nested designators .a.b and .arr[i] and arrays of designated structs */
#include <stdio.h>
struct in {
    int x, y;
};
struct out {
    struct in p;
    int arr[3];
};
int main(void)
{
    struct out o = { .p.y = 5, .arr[1] = 7, .p.x = 3 };
    struct in pts[3] = { [1] = { .y = 2 }, [2].x = 9 };
    printf("%d %d %d %d %d\n", o.p.x, o.p.y, o.arr[0], o.arr[1], o.arr[2]);
    printf("%d %d %d %d\n", pts[0].x, pts[1].y, pts[2].x, pts[2].y);
    return 0;
}
