/* checks a block-scope initialiser runs on every entry into the block */
#include <stdio.h>
int main(void)
{
    int total = 0;
    for (int i = 0; i < 4; i++) {
        int acc = 10;
        int arr[3] = { i, i * 2 };
        struct { int a, b; } s = { i };
        acc += arr[0] + arr[1] + arr[2] + s.a + s.b;
        arr[2] = 99;
        total += acc;
    }
    printf("%d\n", total);
    return 0;
}
