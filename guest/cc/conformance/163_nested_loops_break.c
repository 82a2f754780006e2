/* checks break and continue affect only the innermost loop */
#include <stdio.h>
int main(void)
{
    int count = 0;
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) {
            if (j > i)
                break;
            if ((i + j) % 2)
                continue;
            count += 10 * i + j;
        }
    }
    printf("%d\n", count);
    return 0;
}
