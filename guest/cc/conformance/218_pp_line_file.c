/* checks __LINE__ and a macro using __LINE__ expanding at the use site */
#include <stdio.h>
#include <string.h>
#define HERE __LINE__
int main(void)
{
    int a = __LINE__;
    int b = HERE;
    const char *f = __FILE__;
    printf("%d %d %d\n", a, b, strstr(f, "_pp_line_file.c") != NULL);
    return 0;
}
