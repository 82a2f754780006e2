/* macros.c: the preprocessor: #include (twice, guarded), object- and function-like macros,
 * nested expansion, # and ##, variadic macros, #if/#elif/#else with defined and arithmetic,
 * #ifdef/#ifndef, #undef, __LINE__, a macro call across lines, line continuation. */
#include "testio.h"
#include "macros.h"
#include "macros.h"

#define N 10
#define TWICE(x) (2 * (x))
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define FIRST(x, ...) (x)
#define COUNT3(a, b, c) (a + b + c)
#define LONG_MACRO(a, \
                   b) ((a) - \
                       (b))

#if N > 5 && defined(SQUARE)
#define SIZE 1
#elif N > 2
#define SIZE 2
#else
#define SIZE 3
#endif

#ifdef NOT_DEFINED
this is skipped: not even tokens that would fail @ to parse
#else
#define OTHER 4
#endif

#ifndef OTHER
#error OTHER should be defined
#endif

#undef N
#define N 20

int main(void)
{
    int line0 = __LINE__;
    int CAT(var, 1) = 7;
    out(SQUARE(3 + 1));
    out(MAX(SQUARE(2), TWICE(3)));
    out(N + SIZE + OTHER);
    puts_(GREETING);
    puts_(STR(hello world));
    puts_(XSTR(N));
    out(var1);
    out(FIRST(5, 6, 7));
    out(COUNT3(1,
               2,
               3));
    out(LONG_MACRO(10, 4));
    out(__LINE__ - line0);
    return 0;
}
