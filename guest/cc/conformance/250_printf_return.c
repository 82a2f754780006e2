/* checks printf's return value counts the characters written */
#include <stdio.h>
int main(void)
{
    int n = printf("abc %d %s\n", 12345, "xy");
    int m = printf("%5d|\n", 1);
    int z = printf("%s", "");
    printf("%d %d %d\n", n, m, z);
    return 0;
}
