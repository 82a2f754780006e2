/* checks malloc and free of many blocks of varying sizes */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    char *blocks[20];
    for (int i = 0; i < 20; i++) {
        blocks[i] = malloc(i * 7 + 1);
        memset(blocks[i], 'a' + i, i * 7);
        blocks[i][i * 7] = '\0';
    }
    long total = 0;
    for (int i = 0; i < 20; i++) {
        total += strlen(blocks[i]) * (blocks[i][0] ? blocks[i][0] : 1);
        free(blocks[i]);
    }
    printf("%ld\n", total);
    return 0;
}
