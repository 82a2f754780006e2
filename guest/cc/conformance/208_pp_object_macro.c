/* checks object-like macros, including ones expanding to other macros */
#include <stdio.h>
#define SIZE 10
#define DOUBLE_SIZE (SIZE * 2)
#define GREETING "hi there"
#define EMPTY
int main(void)
{
    int arr[DOUBLE_SIZE];
    EMPTY int x = SIZE EMPTY + 1;
    printf("%d %d %s\n", (int)(sizeof arr / sizeof arr[0]), x, GREETING);
    return 0;
}
