/* complex.h: C99 complex arithmetic (guest/rt/fp/complex.c, which also provides the __muldc3 /
 * __divdc3 / __mulsc3 / __divsc3 helpers clang calls for complex * and /). */
#ifndef _COMPLEX_H
#define _COMPLEX_H

#define complex _Complex
#define _Complex_I (__extension__ 1.0iF)
#define I _Complex_I

#define CMPLX(x, y)  __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))

double creal(double _Complex z);
float crealf(float _Complex z);
double cimag(double _Complex z);
float cimagf(float _Complex z);
double _Complex conj(double _Complex z);
float _Complex conjf(float _Complex z);
double _Complex cproj(double _Complex z);
float _Complex cprojf(float _Complex z);
double cabs(double _Complex z);
float cabsf(float _Complex z);
double carg(double _Complex z);
float cargf(float _Complex z);
double _Complex cexp(double _Complex z);
float _Complex cexpf(float _Complex z);
double _Complex clog(double _Complex z);
float _Complex clogf(float _Complex z);
double _Complex csqrt(double _Complex z);
float _Complex csqrtf(float _Complex z);
double _Complex cpow(double _Complex z, double _Complex w);
float _Complex cpowf(float _Complex z, float _Complex w);

#endif
