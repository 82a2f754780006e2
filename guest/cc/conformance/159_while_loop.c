/* checks while loops including zero iterations */
#include <stdio.h>
int main(void)
{
    int n = 27, steps = 0;
    while (n != 1) {
        n = n % 2 ? 3 * n + 1 : n / 2;
        steps++;
    }
    int z = 0;
    while (0)
        z++;
    printf("%d %d\n", steps, z);
    return 0;
}
