/* checks a[i] == *(a+i) == i[a] */
#include <stdio.h>
int main(void)
{
    int a[4] = { 7, 8, 9, 10 };
    int i = 2;
    printf("%d %d %d\n", a[i], *(a + i), i[a]);
    printf("%c\n", 1["xyz"]);
    return 0;
}
