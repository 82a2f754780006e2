/* multi_main.c: a program in two files compiled into one executable: functions, a global and
 * a struct type shared through a header; a static function of each file's own. */
#include "testio.h"
#include "multi.h"

static long scale(long v);

int main(void)
{
    out(eval_rpn("34+5*"));
    out(eval_rpn("92-3*4+"));
    out(pushes);
    out(scale(5) + doubled(5));
    return 0;
}

static long scale(long v) { return v + 1000; }
