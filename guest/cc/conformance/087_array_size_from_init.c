/* checks an array's length deduced from its initialiser */
#include <stdio.h>
int main(void)
{
    int a[] = { 5, 6, 7, 8, 9 };
    char s[] = "hello";
    int m[][2] = { { 1, 2 }, { 3, 4 }, { 5, 6 } };
    printf("%d %d %d\n", (int)(sizeof a / sizeof a[0]), (int)sizeof s, (int)(sizeof m / sizeof m[0]));
    return 0;
}
