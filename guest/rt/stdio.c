/* stdio.c: the standard streams and files opened with fopen: character/line/block I/O, seeking,
 * flushing. A stream's one buffer holds either read-ahead or pending output; switching direction
 * (or seeking) gives it back first, as C requires between reads and writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

static unsigned char inbuf[BUFSIZ], outbuf[BUFSIZ];

static struct __garm_file files[3] = {
    {.fd = 0, .mode = GARM_FULLBUF, .buf = inbuf, .cap = sizeof inbuf, .flags = GARM_RD,
     .dir = GARM_READING, .next = &files[1]},
    {.fd = 1, .mode = GARM_LINEBUF, .buf = outbuf, .cap = sizeof outbuf, .flags = GARM_WR,
     .dir = GARM_WRITING, .next = &files[2]},
    {.fd = 2, .mode = GARM_UNBUF, .flags = GARM_WR, .dir = GARM_WRITING},
};

/* Every open stream, the standard ones first. */
static struct __garm_file *open_files = &files[0];

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
    if (f->dir != GARM_WRITING || f->len == 0)
        return 0;
    size_t n = f->len;
    f->len = 0;  /* drop the bytes even on error, so one failure isn't repeated forever */
    return write_all(f, f->buf, n);
}

/* Gives back what the buffer holds (pending output written, unread input un-read by seeking
 * the fd back), leaving the stream idle. */
static int settle(FILE *f)
{
    int r = 0;
    if (f->dir == GARM_WRITING)
        r = flush_out(f);
    else if (f->dir == GARM_READING && f->len > f->pos && f != stdin)
        lseek(f->fd, -(off_t)(f->len - f->pos), SEEK_CUR);
    if (f != stdin && f != stdout && f != stderr) {
        f->len = f->pos = 0;
        f->dir = GARM_IDLE;
    }
    return r;
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
    for (FILE *f = open_files; f; f = f->next)
        flush_out(f);
}

int __garm_fwrite_bytes(FILE *f, const void *src, size_t n)
{
    const unsigned char *p = src;
    if (!(f->flags & GARM_WR)) {
        errno = EBADF;
        f->err = 1;
        return EOF;
    }
    if (f->dir != GARM_WRITING) {
        settle(f);
        f->dir = GARM_WRITING;
    }
    if (f->mode == GARM_UNBUF)
        return write_all(f, p, n);
    if (f->mode == GARM_FULLBUF && n >= f->cap) {
        /* As in fread: a piece as large as the buffer is one write(2), not one per buffer. */
        if (flush_out(f))
            return EOF;
        return write_all(f, p, n);
    }
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
    if (f->mode != GARM_UNBUF && f->dir == GARM_WRITING && f->len + 1 < f->cap && ch != '\n') {
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

/* One read(2) of up to `cap` bytes into `to` for a stream already reading: its count, or 0 at
 * end of file and -1 on error (both recorded in the stream). */
static ssize_t read_some(FILE *f, unsigned char *to, size_t cap)
{
    /* Like glibc, show pending prompts before blocking on input. */
    flush_out(stdout);
    for (;;) {
        ssize_t r = read(f->fd, to, cap);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            f->eof = 1;
        else if (r < 0)
            f->err = 1;
        return r;
    }
}

/* Turns the stream to reading; EOF when it cannot read. */
static int start_reading(FILE *f)
{
    if (!(f->flags & GARM_RD)) {
        errno = EBADF;
        f->err = 1;
        return EOF;
    }
    if (f->dir != GARM_READING) {
        settle(f);
        f->dir = GARM_READING;
    }
    return 0;
}

/* Refill an input stream; returns 0 on data, EOF at end or error. */
static int fill(FILE *f)
{
    if (start_reading(f))
        return EOF;
    ssize_t r = read_some(f, f->buf, f->cap);
    if (r <= 0)
        return EOF;
    f->pos = 0;
    f->len = (size_t)r;
    return 0;
}

int fgetc(FILE *f)
{
    if (f->dir == GARM_READING && f->pos < f->len)
        return f->buf[f->pos++];
    if (fill(f))
        return EOF;
    return f->buf[f->pos++];
}

int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f)
{
    if (c == EOF || !(f->flags & GARM_RD))
        return EOF;
    if (f->dir != GARM_READING) {
        settle(f);
        f->dir = GARM_READING;
    }
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
        if (f->dir != GARM_READING && start_reading(f))
            break;
        if (f->pos == f->len) {
            /* A request as large as the buffer goes straight into the caller's memory: under
             * garm each read(2) is a round trip to the host, and a whole file is one. */
            if (want - got >= f->cap) {
                ssize_t r = read_some(f, d + got, want - got);
                if (r <= 0)
                    break;
                got += (size_t)r;
                continue;
            }
            if (fill(f))
                break;
        }
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

/* "r", "w", "a", with "+", "b" (ignored), "x" (O_EXCL) and "e" (O_CLOEXEC). */
static int open_flags(const char *mode, int *rw)
{
    int flags;
    switch (mode[0]) {
    case 'r': flags = O_RDONLY; *rw = GARM_RD; break;
    case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; *rw = GARM_WR; break;
    case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; *rw = GARM_WR; break;
    default: errno = EINVAL; return -1;
    }
    for (const char *m = mode + 1; *m; m++) {
        if (*m == '+') {
            flags = (flags & ~(O_WRONLY | O_RDWR)) | O_RDWR;
            *rw = GARM_RD | GARM_WR;
        } else if (*m == 'x') {
            flags |= O_EXCL;
        } else if (*m == 'e') {
            flags |= O_CLOEXEC;
        }
    }
    return flags;
}

FILE *fdopen(int fd, const char *mode)
{
    int rw;
    if (open_flags(mode, &rw) < 0)
        return NULL;
    FILE *f = malloc(sizeof *f + BUFSIZ);
    if (!f) {
        errno = ENOMEM;
        return NULL;
    }
    memset(f, 0, sizeof *f);
    f->fd = fd;
    f->mode = GARM_FULLBUF;
    f->buf = (unsigned char *)(f + 1);
    f->cap = BUFSIZ;
    f->flags = rw | GARM_OWNED;
    f->dir = GARM_IDLE;
    f->next = files[2].next;
    files[2].next = f;
    return f;
}

FILE *fopen(const char *path, const char *mode)
{
    int rw, flags = open_flags(mode, &rw);
    if (flags < 0)
        return NULL;
    int fd = open(path, flags, 0666);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, mode);
    if (!f)
        close(fd);
    return f;
}

int fclose(FILE *f)
{
    int r = settle(f) ? EOF : 0;
    if (close(f->fd) < 0)
        r = EOF;
    if (f->flags & GARM_OWNED) {
        for (FILE **p = &files[2].next; *p; p = &(*p)->next) {
            if (*p == f) {
                *p = f->next;
                break;
            }
        }
        free(f);
    }
    return r;
}

int fseek(FILE *f, long off, int whence)
{
    if (whence == SEEK_CUR && f->dir == GARM_READING)
        off -= (long)(f->len - f->pos);
    if (f->dir == GARM_WRITING && flush_out(f))
        return -1;
    f->len = f->pos = 0;
    f->dir = GARM_IDLE;
    if (lseek(f->fd, off, whence) < 0)
        return -1;
    f->eof = 0;
    return 0;
}

long ftell(FILE *f)
{
    off_t at = lseek(f->fd, 0, SEEK_CUR);
    if (at < 0)
        return -1;
    if (f->dir == GARM_READING)
        return (long)(at - (off_t)(f->len - f->pos));
    if (f->dir == GARM_WRITING)
        return (long)(at + (off_t)f->len);
    return (long)at;
}

void rewind(FILE *f)
{
    fseek(f, 0, SEEK_SET);
    f->err = 0;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    (void)buf;
    (void)size;
    if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF)
        return -1;
    if (flush_out(f))
        return -1;
    f->mode = mode == _IONBF ? GARM_UNBUF : mode == _IOLBF ? GARM_LINEBUF : GARM_FULLBUF;
    if (f->mode != GARM_UNBUF && f->cap == 0)
        f->mode = GARM_UNBUF;  /* a stream without a buffer of its own stays unbuffered */
    return 0;
}

void setbuf(FILE *f, char *buf)
{
    setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

int remove(const char *path)
{
    if (unlink(path) == 0)
        return 0;
    if (errno == EISDIR)
        return rmdir(path);
    return -1;
}

FILE *tmpfile(void)
{
    static unsigned counter;
    char name[64];
    for (int tries = 0; tries < 100; tries++) {
        snprintf(name, sizeof name, "/tmp/.garm-tmp-%d-%u", getpid(), counter++);
        int fd = open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) {
            unlink(name);
            FILE *f = fdopen(fd, "w+");
            if (!f)
                close(fd);
            return f;
        }
        if (errno != EEXIST)
            return NULL;
    }
    return NULL;
}
