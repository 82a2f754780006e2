/* checks empty statements, empty blocks and nested compound statements */
#include <stdio.h>
int main(void)
{
    int x = 1;
    ;
    {}
    {
        {
            x += 2;
            ;
        }
        {}
    }
    if (x) {} else x = 0;
    printf("%d\n", x);
    return 0;
}
