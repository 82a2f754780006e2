/* string.c: memory and string functions (clang emits calls to the mem* ones itself). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Word-sized access to arbitrary bytes without breaking strict aliasing. */
typedef uint64_t __attribute__((may_alias)) word_t;

/* Forward copy, deliberately without restrict: memmove relies on it being
 * correct when dest lies below an overlapping src. */
static void copy_forward(unsigned char *dp, const unsigned char *sp, size_t n)
{
    /* Word copies cut the instruction count ~8x for the emulator; only when
     * both pointers share alignment, since the fallback must stay simple. */
    if ((((uintptr_t)dp ^ (uintptr_t)sp) & 7) == 0) {
        while (n && ((uintptr_t)dp & 7)) {
            *dp++ = *sp++;
            n--;
        }
        for (; n >= 32; n -= 32, dp += 32, sp += 32) {
            word_t a = ((const word_t *)sp)[0], b = ((const word_t *)sp)[1];
            word_t c = ((const word_t *)sp)[2], e = ((const word_t *)sp)[3];
            ((word_t *)dp)[0] = a;
            ((word_t *)dp)[1] = b;
            ((word_t *)dp)[2] = c;
            ((word_t *)dp)[3] = e;
        }
        for (; n >= 8; n -= 8, dp += 8, sp += 8)
            *(word_t *)dp = *(const word_t *)sp;
    }
    while (n--)
        *dp++ = *sp++;
}

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
    copy_forward(d, s, n);
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    if (dp == sp || n == 0)
        return d;
    if (dp < sp || dp >= sp + n) {
        copy_forward(dp, sp, n);  /* safe: dest starts below src or past its end */
        return d;
    }
    /* Overlap with dest above src: copy backwards. */
    dp += n;
    sp += n;
    if ((((uintptr_t)dp ^ (uintptr_t)sp) & 7) == 0) {
        while (n && ((uintptr_t)dp & 7)) {
            *--dp = *--sp;
            n--;
        }
        for (; n >= 8; n -= 8) {
            dp -= 8;
            sp -= 8;
            *(word_t *)dp = *(const word_t *)sp;
        }
    }
    while (n--)
        *--dp = *--sp;
    return d;
}

void *memset(void *d, int c, size_t n)
{
    unsigned char *dp = d;
    unsigned char b = (unsigned char)c;
    while (n && ((uintptr_t)dp & 7)) {
        *dp++ = b;
        n--;
    }
    word_t w = b * 0x0101010101010101ULL;
    for (; n >= 32; n -= 32, dp += 32) {
        ((word_t *)dp)[0] = w;
        ((word_t *)dp)[1] = w;
        ((word_t *)dp)[2] = w;
        ((word_t *)dp)[3] = w;
    }
    for (; n >= 8; n -= 8, dp += 8)
        *(word_t *)dp = w;
    while (n--)
        *dp++ = b;
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (; n; n--, p++, q++)
        if (*p != *q)
            return *p - *q;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    for (; n; n--, p++)
        if (*p == (unsigned char)c)
            return (void *)p;
    return NULL;
}

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
    size_t i = 0;
    while (i < max && s[i])
        i++;
    return i;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (!*a)
            return 0;
    }
    return 0;
}

char *strcpy(char *restrict d, const char *restrict s)
{
    char *r = d;
    while ((*d++ = *s++))
        ;
    return r;
}

char *strncpy(char *restrict d, const char *restrict s, size_t n)
{
    size_t i = 0;
    for (; i < n && s[i]; i++)
        d[i] = s[i];
    for (; i < n; i++)
        d[i] = '\0';
    return d;
}

char *strcat(char *restrict d, const char *restrict s)
{
    strcpy(d + strlen(d), s);
    return d;
}

char *strncat(char *restrict d, const char *restrict s, size_t n)
{
    char *p = d + strlen(d);
    while (n-- && *s)
        *p++ = *s++;
    *p = '\0';
    return d;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}

char *strrchr(const char *s, int c)
{
    const char *last = NULL;
    for (;; s++) {
        if (*s == (char)c)
            last = s;
        if (!*s)
            return (char *)last;
    }
}

char *strstr(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return (char *)hay;
    for (; *hay; hay++)
        if (*hay == *needle && strncmp(hay, needle, n) == 0)
            return (char *)hay;
    return NULL;
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t n)
{
    n = strnlen(s, n);
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

size_t strspn(const char *s, const char *accept)
{
    size_t i = 0;
    while (s[i] && strchr(accept, s[i]))
        i++;
    return i;
}

size_t strcspn(const char *s, const char *reject)
{
    size_t i = 0;
    while (s[i] && !strchr(reject, s[i]))
        i++;
    return i;
}

char *strpbrk(const char *s, const char *accept)
{
    s += strcspn(s, accept);
    return *s ? (char *)s : NULL;
}

char *strtok_r(char *restrict s, const char *restrict delim, char **restrict save)
{
    if (!s)
        s = *save;
    if (!s)
        return NULL;
    s += strspn(s, delim);
    if (!*s) {
        *save = NULL;
        return NULL;
    }
    char *end = s + strcspn(s, delim);
    if (*end)
        *end++ = '\0';
    else
        end = NULL;
    *save = end;
    return s;
}

char *strtok(char *restrict s, const char *restrict delim)
{
    static char *save;
    return strtok_r(s, delim, &save);
}

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

int strcasecmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while (*p && lower(*p) == lower(*q))
        p++, q++;
    return lower(*p) - lower(*q);
}

int strncasecmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    for (; n; n--, p++, q++) {
        if (lower(*p) != lower(*q))
            return lower(*p) - lower(*q);
        if (!*p)
            return 0;
    }
    return 0;
}

char *strerror(int e)
{
    /* glibc's wording, so messages match a native run. */
    switch (e) {
    case 0: return "Success";
    case EPERM: return "Operation not permitted";
    case ENOENT: return "No such file or directory";
    case ESRCH: return "No such process";
    case EINTR: return "Interrupted system call";
    case EIO: return "Input/output error";
    case E2BIG: return "Argument list too long";
    case EBADF: return "Bad file descriptor";
    case EAGAIN: return "Resource temporarily unavailable";
    case ENOMEM: return "Cannot allocate memory";
    case EACCES: return "Permission denied";
    case EFAULT: return "Bad address";
    case EEXIST: return "File exists";
    case ENOTDIR: return "Not a directory";
    case EISDIR: return "Is a directory";
    case EINVAL: return "Invalid argument";
    case EMFILE: return "Too many open files";
    case ENOSPC: return "No space left on device";
    case ESPIPE: return "Illegal seek";
    case EPIPE: return "Broken pipe";
    case EDOM: return "Numerical argument out of domain";
    case ERANGE: return "Numerical result out of range";
    case ENOSYS: return "Function not implemented";
    }
    static char buf[32];
    snprintf(buf, sizeof buf, "Unknown error %d", e);
    return buf;
}
