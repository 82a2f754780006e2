/* checks the C99 predefined identifier __func__ */
#include <stdio.h>
#include <string.h>
static const char *who(void) { return __func__; }
int main(void)
{
    const char *me = __func__;
    printf("%s %s %d\n", __func__, who(), (int)sizeof __func__);
    printf("%d\n", strcmp(me, "main") == 0);
    return 0;
}
