/* stdio.c: the three standard streams, character/line/block I/O and flushing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

static unsigned char inbuf[BUFSIZ], outbuf[BUFSIZ];

static struct __garm_file files[3] = {
    {.fd = 0, .mode = GARM_FULLBUF, .buf = inbuf, .cap = sizeof inbuf},
    {.fd = 1, .mode = GARM_LINEBUF, .buf = outbuf, .cap = sizeof outbuf},
    {.fd = 2, .mode = GARM_UNBUF},
};

FILE *const stdin = &files[0];
FILE *const stdout = &files[1];
FILE *const stderr = &files[2];

/* write() until done: pipes and terminals may take partial writes. */
static int write_all(FILE *f, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(f->fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            f->err = 1;
            return EOF;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int flush_out(FILE *f)
{
    if (f == stdin || f->len == 0)
        return 0;
    size_t n = f->len;
    f->len = 0;  /* drop the bytes even on error, so one failure isn't repeated forever */
    return write_all(f, f->buf, n);
}

int fflush(FILE *f)
{
    if (!f) {
        __garm_stdio_flush_all();
        return 0;
    }
    return flush_out(f);
}

void __garm_stdio_flush_all(void)
{
    flush_out(stdout);
    flush_out(stderr);
}

int __garm_fwrite_bytes(FILE *f, const void *src, size_t n)
{
    const unsigned char *p = src;
    if (f == stdin) {
        errno = EBADF;
        f->err = 1;
        return EOF;
    }
    if (f->mode == GARM_UNBUF)
        return write_all(f, p, n);
    while (n > 0) {
        size_t room = f->cap - f->len;
        if (room == 0) {
            if (flush_out(f))
                return EOF;
            room = f->cap;
        }
        size_t k = n < room ? n : room;
        size_t nl = k;  /* bytes up to and including the last newline in this piece */
        if (f->mode == GARM_LINEBUF) {
            const unsigned char *q = memchr(p, '\n', k);
            nl = 0;
            while (q) {
                nl = (size_t)(q - p) + 1;
                q = memchr(p + nl, '\n', k - nl);
            }
        }
        memcpy(f->buf + f->len, p, k);
        f->len += k;
        p += k;
        n -= k;
        if (f->len == f->cap || (f->mode == GARM_LINEBUF && nl)) {
            /* Line buffering: push out everything through the newline, keep the tail. */
            size_t keep = (f->mode == GARM_LINEBUF && nl) ? k - nl : 0;
            if (f->len == f->cap)
                keep = 0;
            size_t out = f->len - keep;
            if (write_all(f, f->buf, out)) {
                f->len = 0;
                return EOF;
            }
            memmove(f->buf, f->buf + out, keep);
            f->len = keep;
        }
    }
    return 0;
}

int fputc(int c, FILE *f)
{
    unsigned char ch = (unsigned char)c;
    /* Fast path for the common buffered case. */
    if (f->mode != GARM_UNBUF && f != stdin && f->len + 1 < f->cap && ch != '\n') {
        f->buf[f->len++] = ch;
        return ch;
    }
    return __garm_fwrite_bytes(f, &ch, 1) ? EOF : ch;
}

int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }

int fputs(const char *s, FILE *f)
{
    return __garm_fwrite_bytes(f, s, strlen(s)) ? EOF : 0;
}

int puts(const char *s)
{
    if (__garm_fwrite_bytes(stdout, s, strlen(s)))
        return EOF;
    return fputc('\n', stdout) == EOF ? EOF : 0;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    if (size == 0 || n == 0)
        return 0;
    /* Overflow of size*n is impossible for an object that exists in memory. */
    return __garm_fwrite_bytes(f, p, size * n) ? 0 : n;
}

/* Refill an input stream; returns 0 on data, EOF at end or error. */
static int fill(FILE *f)
{
    if (f != stdin) {
        errno = EBADF;
        f->err = 1;
        return EOF;
    }
    /* Like glibc, show pending prompts before blocking on input. */
    flush_out(stdout);
    for (;;) {
        ssize_t r = read(f->fd, f->buf, f->cap);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                f->eof = 1;
            else
                f->err = 1;
            return EOF;
        }
        f->pos = 0;
        f->len = (size_t)r;
        return 0;
    }
}

int fgetc(FILE *f)
{
    if (f->pos < f->len)
        return f->buf[f->pos++];
    if (fill(f))
        return EOF;
    return f->buf[f->pos++];
}

int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f)
{
    if (c == EOF || f != stdin)
        return EOF;
    if (f->pos == 0) {
        if (f->len == f->cap)
            return EOF;
        memmove(f->buf + 1, f->buf, f->len);
        f->len++;
        f->pos = 1;
    }
    f->buf[--f->pos] = (unsigned char)c;
    f->eof = 0;
    return (unsigned char)c;
}

char *fgets(char *buf, int n, FILE *f)
{
    if (n <= 0)
        return NULL;
    int i = 0;
    while (i < n - 1) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        buf[i++] = (char)c;
        if (c == '\n')
            break;
    }
    if (i == 0 && n > 1)
        return NULL;
    buf[i] = '\0';
    return buf;
}

size_t fread(void *p, size_t size, size_t n, FILE *f)
{
    if (size == 0 || n == 0)
        return 0;
    unsigned char *d = p;
    size_t want = size * n, got = 0;
    while (got < want) {
        if (f->pos == f->len && fill(f))
            break;
        size_t k = f->len - f->pos;
        if (k > want - got)
            k = want - got;
        memcpy(d + got, f->buf + f->pos, k);
        f->pos += k;
        got += k;
    }
    return got / size;
}

int feof(FILE *f) { return f->eof; }
int ferror(FILE *f) { return f->err; }
void clearerr(FILE *f) { f->eof = f->err = 0; }
int fileno(FILE *f) { return f->fd; }

void perror(const char *s)
{
    const char *msg = strerror(errno);
    if (s && *s)
        fprintf(stderr, "%s: %s\n", s, msg);
    else
        fprintf(stderr, "%s\n", msg);
}
