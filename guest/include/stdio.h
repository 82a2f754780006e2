/* stdio.h: buffered stdio: the standard streams (stdout line-buffered, stderr unbuffered) and
 * files opened with fopen (fully buffered). */
#ifndef _STDIO_H
#define _STDIO_H
#include <stddef.h>
#include <stdarg.h>

#define EOF (-1)
#define BUFSIZ 1024
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
#define L_tmpnam 64

typedef struct __garm_file FILE;
extern FILE *const stdin;
extern FILE *const stdout;
extern FILE *const stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr

int printf(const char *restrict fmt, ...) __attribute__((format(printf, 1, 2)));
int fprintf(FILE *restrict f, const char *restrict fmt, ...) __attribute__((format(printf, 2, 3)));
int sprintf(char *restrict buf, const char *restrict fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *restrict buf, size_t n, const char *restrict fmt, ...) __attribute__((format(printf, 3, 4)));
int vprintf(const char *restrict fmt, va_list ap);
int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap);
int vsprintf(char *restrict buf, const char *restrict fmt, va_list ap);
int vsnprintf(char *restrict buf, size_t n, const char *restrict fmt, va_list ap);
int dprintf(int fd, const char *restrict fmt, ...) __attribute__((format(printf, 2, 3)));
int vdprintf(int fd, const char *restrict fmt, va_list ap);

int scanf(const char *restrict fmt, ...) __attribute__((format(scanf, 1, 2)));
int fscanf(FILE *restrict f, const char *restrict fmt, ...) __attribute__((format(scanf, 2, 3)));
int sscanf(const char *restrict s, const char *restrict fmt, ...) __attribute__((format(scanf, 2, 3)));
int vscanf(const char *restrict fmt, va_list ap) __attribute__((format(scanf, 1, 0)));
int vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap) __attribute__((format(scanf, 2, 0)));
int vsscanf(const char *restrict s, const char *restrict fmt, va_list ap) __attribute__((format(scanf, 2, 0)));

int puts(const char *s);
int fputs(const char *restrict s, FILE *restrict f);
int putchar(int c);
int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int getchar(void);
int fgetc(FILE *f);
int getc(FILE *f);
int ungetc(int c, FILE *f);
char *fgets(char *restrict buf, int n, FILE *restrict f);
int fflush(FILE *f);
size_t fwrite(const void *restrict p, size_t size, size_t n, FILE *restrict f);
size_t fread(void *restrict p, size_t size, size_t n, FILE *restrict f);
int feof(FILE *f);
int ferror(FILE *f);
void clearerr(FILE *f);
int fileno(FILE *f);
void perror(const char *s);
int rename(const char *from, const char *to);
int remove(const char *path);

FILE *fopen(const char *restrict path, const char *restrict mode);
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *f);
int fseek(FILE *f, long off, int whence);
long ftell(FILE *f);
void rewind(FILE *f);
int setvbuf(FILE *restrict f, char *restrict buf, int mode, size_t size);
void setbuf(FILE *restrict f, char *restrict buf);
FILE *tmpfile(void);
#endif
