/* checks tentative definitions at file scope combine into one zero-initialised object */
#include <stdio.h>
int counter;
int counter;
int counter = 3;
long zeroed;
int main(void)
{
    counter++;
    printf("%d %ld\n", counter, zeroed);
    return 0;
}
