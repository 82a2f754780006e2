/* checks sizeof *p idiom in malloc and computed element counts */
#include <stdio.h>
#include <stdlib.h>
struct rec {
    int id;
    long v;
};
int main(void)
{
    int n = 5;
    struct rec *r = malloc(n * sizeof *r);
    for (int i = 0; i < n; i++) {
        r[i].id = i;
        r[i].v = (long)i * i * 1000000000L;
    }
    printf("%d %ld %d\n", r[4].id, r[4].v, (int)sizeof *r);
    free(r);
    return 0;
}
