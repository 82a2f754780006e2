/* assert.h: assert() prints "Assertion failed: expr (file: line)" to stderr, then abort(). */
/* No include guard: the C standard lets assert.h be re-included with NDEBUG changed. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
void __garm_assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));
#define assert(e) ((e) ? (void)0 : __garm_assert_fail(#e, __FILE__, __LINE__))
#endif
#ifndef static_assert
#define static_assert _Static_assert
#endif
