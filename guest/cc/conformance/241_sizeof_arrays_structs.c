/* checks sizeof of arrays, structs with padding, and array parameters */
#include <stdio.h>
struct a { char c; };
struct b { char c; int i; };
struct c { char c; long l; char d; };
struct d { short s[3]; char c; };
static int param_size(int arr[10]) { return sizeof arr; }
int main(void)
{
    int arr[10];
    printf("%d %d %d %d %d\n", (int)sizeof(struct a), (int)sizeof(struct b), (int)sizeof(struct c),
           (int)sizeof(struct d), (int)sizeof arr);
    printf("%d %d\n", param_size(arr), (int)sizeof(arr) / (int)sizeof(arr[0]));
    return 0;
}
