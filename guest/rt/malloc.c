/* malloc.c: boundary-tag allocator over brk with segregated free lists and coalescing. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Heap = [chunk][chunk]...[top]. Each chunk starts with a 16-byte header, so
 * 16-byte aligned chunks give 16-byte aligned payloads:
 *
 *   prev_size  size of the previous chunk, valid only while that chunk is free
 *   head       this chunk's size (multiple of 16, >= 32) | INUSE | PREV_INUSE
 *
 * Free chunks keep list links in their payload. Free neighbours are always
 * merged, and a free chunk next to `top` is merged into it, so the chunk
 * before `top` is never free. `top` always keeps >= 16 bytes spare so a
 * fence header can be written there if brk ever turns out non-contiguous.
 */

#define INUSE      1UL
#define PREV_INUSE 2UL
#define FLAGS      3UL
#define HDR        16UL
#define MIN_CHUNK  32UL
#define GROW_MIN   (64UL * 1024)

typedef struct chunk {
    size_t prev_size;
    size_t head;
    struct chunk *fd, *bk;  /* free chunks only */
} chunk;

/* Bins 0..63: exact sizes in 16-byte steps below 1 KiB; 64..127: one per power of two. */
#define NBINS 128
static chunk *bins[NBINS];
static uint64_t binmap[2];  /* bit set = bin non-empty, to skip empty bins quickly */

static char *top;       /* start of the unallocated tail of the heap */
static char *heap_end;  /* current program break */

static inline size_t csize(const chunk *c) { return c->head & ~FLAGS; }
static inline chunk *at(void *p) { return (chunk *)p; }
static inline chunk *next_chunk(chunk *c) { return at((char *)c + csize(c)); }

static unsigned bin_index(size_t sz)
{
    if (sz < 1024)
        return (unsigned)(sz >> 4);
    unsigned b = 64 + (63 - (unsigned)__builtin_clzl(sz)) - 10;
    return b < NBINS ? b : NBINS - 1;
}

static void bin_insert(chunk *c)
{
    unsigned i = bin_index(csize(c));
    c->bk = NULL;
    c->fd = bins[i];
    if (bins[i])
        bins[i]->bk = c;
    bins[i] = c;
    binmap[i >> 6] |= 1ULL << (i & 63);
}

static void bin_remove(chunk *c)
{
    unsigned i = bin_index(csize(c));
    if (c->bk)
        c->bk->fd = c->fd;
    else
        bins[i] = c->fd;
    if (c->fd)
        c->fd->bk = c->bk;
    if (!bins[i])
        binmap[i >> 6] &= ~(1ULL << (i & 63));
}

/* Mark chunk c (size sz) free in its successor's header, or fold it into top. */
static void release(chunk *c, size_t sz)
{
    char *nx = (char *)c + sz;
    if (nx == top) {
        top = (char *)c;
        return;
    }
    c->head = sz | PREV_INUSE;  /* predecessor of a free chunk is always in use */
    at(nx)->prev_size = sz;
    at(nx)->head &= ~PREV_INUSE;
    bin_insert(c);
}

/* Ensure top has at least need + HDR bytes; false when brk refuses. */
static int grow(size_t need)
{
    if (!top) {
        char *b = sbrk(0);
        if (b == (char *)-1)
            return 0;
        char *aligned = (char *)(((uintptr_t)b + 15) & ~(uintptr_t)15);
        if (aligned != b && sbrk(aligned - b) == (void *)-1)
            return 0;
        top = heap_end = aligned;
    }
    size_t have = (size_t)(heap_end - top);
    if (have >= need + HDR)
        return 1;
    size_t inc = need + HDR - have;
    if (inc < GROW_MIN)
        inc = GROW_MIN;
    inc = (inc + 4095) & ~4095UL;
    char *old = sbrk((long)inc);
    if (old == (char *)-1) {
        /* Retry with just what's needed, in case the big step hit a limit. */
        inc = (need + HDR - have + 15) & ~15UL;
        old = sbrk((long)inc);
        if (old == (char *)-1)
            return 0;
    }
    if (old != heap_end) {
        /* Someone else moved brk: fence off the old tail as permanently used. */
        at(top)->head = (size_t)(heap_end - top) | INUSE | PREV_INUSE;
        char *aligned = (char *)(((uintptr_t)old + 15) & ~(uintptr_t)15);
        top = aligned;
        heap_end = old + inc;
        return (size_t)(heap_end - top) >= need + HDR || grow(need);
    }
    heap_end = old + inc;
    return 1;
}

static size_t request_size(size_t n)
{
    if (n > SIZE_MAX / 2)
        return 0;
    size_t sz = (n + HDR + 15) & ~15UL;
    return sz < MIN_CHUNK ? MIN_CHUNK : sz;
}

/* Take sz bytes off the front of free chunk c (already unlinked); return c. */
static chunk *carve(chunk *c, size_t sz)
{
    size_t have = csize(c);
    if (have - sz >= MIN_CHUNK) {
        chunk *rest = at((char *)c + sz);
        rest->head = (have - sz) | PREV_INUSE;
        at((char *)rest + (have - sz))->prev_size = have - sz;  /* successor's PREV_INUSE already clear */
        bin_insert(rest);
        c->head = sz | (c->head & PREV_INUSE) | INUSE;
    } else {
        c->head |= INUSE;
        chunk *nx = next_chunk(c);
        if ((char *)nx != top)
            nx->head |= PREV_INUSE;
    }
    return c;
}

void *malloc(size_t n)
{
    size_t sz = request_size(n);
    if (!sz) {
        errno = ENOMEM;
        return NULL;
    }
    /* Smallest non-empty bin that can hold sz, first fit within it. */
    unsigned i = bin_index(sz);
    while (i < NBINS) {
        uint64_t m = binmap[i >> 6] & (~0ULL << (i & 63));
        if (!m) {
            i = (i | 63) + 1;
            continue;
        }
        i = (i & ~63u) + (unsigned)__builtin_ctzll(m);
        for (chunk *c = bins[i]; c; c = c->fd) {
            if (csize(c) >= sz) {
                bin_remove(c);
                return (char *)carve(c, sz) + HDR;
            }
        }
        i++;
    }
    if (!grow(sz)) {
        errno = ENOMEM;
        return NULL;
    }
    chunk *c = at(top);
    c->head = sz | INUSE | PREV_INUSE;  /* chunk before top is never free */
    top += sz;
    return (char *)c + HDR;
}

void free(void *p)
{
    if (!p)
        return;
    chunk *c = at((char *)p - HDR);
    size_t sz = csize(c);
    if (!(c->head & PREV_INUSE)) {
        chunk *prev = at((char *)c - c->prev_size);
        bin_remove(prev);
        sz += csize(prev);
        c = prev;
    }
    chunk *nx = at((char *)c + sz);
    if ((char *)nx != top && !(nx->head & INUSE)) {
        bin_remove(nx);
        sz += csize(nx);
    }
    release(c, sz);
}

void *calloc(size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = malloc(n);
    /* Memory fresh from brk is already zero, but recycled chunks are not. */
    if (p)
        memset(p, 0, n);
    return p;
}

void *realloc(void *p, size_t n)
{
    if (!p)
        return malloc(n);
    if (n == 0) {
        free(p);
        return NULL;
    }
    size_t sz = request_size(n);
    if (!sz) {
        errno = ENOMEM;
        return NULL;
    }
    chunk *c = at((char *)p - HDR);
    size_t have = csize(c);
    chunk *nx = at((char *)c + have);

    if ((char *)nx == top) {
        /* Last chunk: resize in place by moving top (unless grow() had to
         * start a new region after a foreign brk move). */
        if (sz > have && (!grow(sz - have) || (char *)nx != top))
            goto move;
        top = (char *)c + sz;
        c->head = sz | (c->head & PREV_INUSE) | INUSE;
        return p;
    }
    if (sz <= have) {
        if (have - sz >= MIN_CHUNK) {
            c->head = sz | (c->head & PREV_INUSE) | INUSE;
            chunk *rest = at((char *)c + sz);
            size_t rsz = have - sz;
            if (!(nx->head & INUSE)) {
                bin_remove(nx);
                rsz += csize(nx);
            }
            rest->head = rsz | INUSE | PREV_INUSE;  /* release() rewrites it */
            release(rest, rsz);
        }
        return p;
    }
    if (!(nx->head & INUSE) && have + csize(nx) >= sz) {
        /* Absorb the free successor, then give back any excess. */
        bin_remove(nx);
        c->head = (have + csize(nx)) | (c->head & PREV_INUSE);  /* momentarily "free" for carve */
        return (char *)carve(c, sz) + HDR;
    }
move:;
    void *q = malloc(n);
    if (!q)
        return NULL;
    memcpy(q, p, have - HDR);
    free(p);
    return q;
}
