/* checks simple recursion (naive Fibonacci) */
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void)
{
    for (int i = 0; i <= 20; i += 5)
        printf("%d ", fib(i));
    printf("\n");
    return 0;
}
