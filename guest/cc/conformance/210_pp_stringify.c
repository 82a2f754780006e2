/* checks the # stringizing operator, including spacing and quotes */
#include <stdio.h>
#define STR(x) #x
#define XSTR(x) STR(x)
#define VALUE 42
int main(void)
{
    printf("%s|%s|%s|%s\n", STR(hello), STR(a  +   b), STR("q"), STR(VALUE));
    printf("%s\n", XSTR(VALUE));
    return 0;
}
