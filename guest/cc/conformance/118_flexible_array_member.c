/* checks a struct with a C99 flexible array member allocated with malloc */
#include <stdio.h>
#include <stdlib.h>
struct vec {
    int len;
    int data[];
};
int main(void)
{
    struct vec *v = malloc(sizeof(struct vec) + 5 * sizeof(int));
    v->len = 5;
    for (int i = 0; i < v->len; i++)
        v->data[i] = i * i;
    int s = 0;
    for (int i = 0; i < v->len; i++)
        s += v->data[i];
    printf("%d %d\n", s, (int)sizeof(struct vec));
    free(v);
    return 0;
}
