/* checks // and block comments in unusual places, including inside expressions */
#include <stdio.h>
int main(void)
{
    int a = 1 /* one */ + /* plus */ 2; // three
    int b = 4 // comment ends the line
        + 5;
    /* multi
       line */ int c = a/**/+b;
    // a comment with /* inside
    printf("%d %d %d %s\n", a, b, c, "/* not a comment */ // nor this");
    return 0;
}
