/* multi_main.c: a program in two files compiled into one executable: functions, a global and
 * a struct type shared through a header. */
#include "testio.h"
#include "multi.h"

int main(void)
{
    out(eval_rpn("34+5*"));
    out(eval_rpn("92-3*4+"));
    out(pushes);
    return 0;
}
