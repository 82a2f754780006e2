/* checks qsort of an array of structs by a string key */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct kv {
    const char *key;
    int val;
};
static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}
int main(void)
{
    struct kv t[5] = { { "pear", 1 }, { "apple", 2 }, { "zoo", 3 }, { "fig", 4 }, { "kiwi", 5 } };
    qsort(t, 5, sizeof t[0], by_key);
    for (int i = 0; i < 5; i++)
        printf("%s=%d ", t[i].key, t[i].val);
    printf("\n");
    return 0;
}
