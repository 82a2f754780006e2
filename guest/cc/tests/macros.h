/* macros.h: included by macros.c ("..." from the includer's directory), guarded. */
#ifndef MACROS_H
#define MACROS_H
#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define GREETING "from the header"
#endif
