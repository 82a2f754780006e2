/* checks variadic macros with __VA_ARGS__ */
#include <stdio.h>
#define LOG(fmt, ...) printf("log: " fmt "\n", __VA_ARGS__)
#define COUNT_ARGS(...) count(__VA_ARGS__, -1)
#define FIRST(a, ...) a
static int count(int a, ...) { return a; }
int main(void)
{
    LOG("%d+%d=%d", 2, 3, 5);
    LOG("%s", "one");
    printf("%d %d\n", COUNT_ARGS(8, 9), FIRST(4, 5, 6));
    return 0;
}
