/* stdarg.h for garm's C compiler: va_list for prototypes (defining variadic functions is not
 * in the compiler yet). */
#ifndef _STDARG_H
#define _STDARG_H
typedef char *va_list;
#endif
