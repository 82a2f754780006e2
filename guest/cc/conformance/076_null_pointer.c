/* checks null pointer constants: 0, NULL, (void *)0 and their comparison */
#include <stdio.h>
#include <stddef.h>
int main(void)
{
    int *a = 0;
    char *b = NULL;
    long *c = (void *)0;
    int x;
    int *d = &x;
    printf("%d %d %d %d\n", a == NULL, b == 0, !c, d == NULL);
    if (!a && !b)
        printf("nulls\n");
    return 0;
}
