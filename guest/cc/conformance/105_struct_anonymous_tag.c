/* checks untagged structs via typedef and as a variable's type */
#include <stdio.h>
typedef struct {
    int w, h;
} size_t2;
struct {
    int a;
    char b;
} glob = { 4, 'g' };
int main(void)
{
    size_t2 s = { 3, 4 };
    struct {
        long x;
    } local = { 77 };
    printf("%d %d %c %ld\n", s.w * s.h, glob.a, glob.b, local.x);
    return 0;
}
