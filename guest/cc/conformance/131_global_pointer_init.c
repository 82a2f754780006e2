/* checks globals initialised with addresses of globals, of array elements, and of strings */
#include <stdio.h>
int value = 42;
int arr[5] = { 1, 2, 3, 4, 5 };
int *pv = &value;
int *pa = &arr[3];
int *pb = arr + 1;
const char *msg = "hello";
char text[] = "world";
char *pt = text;
int main(void)
{
    *pv += 1;
    printf("%d %d %d %s %s %c\n", value, *pa, *pb, msg, pt, pt[4]);
    return 0;
}
