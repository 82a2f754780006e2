/* checks ?: with void operands and casts to void discarding values */
#include <stdio.h>
static int hits;
static void a(void) { hits += 1; }
static void b(void) { hits += 10; }
static int side(void) { return ++hits; }
int main(void)
{
    for (int i = 0; i < 3; i++)
        i % 2 ? a() : b();
    (void)side();
    (void)0;
    printf("%d\n", hits);
    return 0;
}
