/* checks a va_list passed to a helper function that consumes arguments */
#include <stdio.h>
#include <stdarg.h>
static int take_two(va_list *ap)
{
    int a = va_arg(*ap, int);
    int b = va_arg(*ap, int);
    return a * b;
}
static int products(int pairs, ...)
{
    va_list ap;
    va_start(ap, pairs);
    int s = 0;
    for (int i = 0; i < pairs; i++)
        s += take_two(&ap);
    va_end(ap);
    return s;
}
int main(void)
{
    printf("%d\n", products(3, 2, 3, 4, 5, 6, 7));
    return 0;
}
