/* checks #undef and redefining a macro */
#include <stdio.h>
#define X 1
int a = X;
#undef X
#define X 2
int b = X;
#undef X
#ifdef X
int c = 100;
#else
int c = 3;
#endif
int main(void)
{
    printf("%d %d %d\n", a, b, c);
    return 0;
}
