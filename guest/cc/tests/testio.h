/* testio.h: output for the compiler's test programs (no runtime is linked): a number or a
 * string per line through the write system call. */
#ifndef TESTIO_H
#define TESTIO_H
long sys_write(long fd, char *p, long n) { return __syscall(64, fd, p, n); }

int out(long v)
{
    char buf[24];
    char *p = buf + 23;
    int neg = v < 0;
    if (neg) v = -v;
    *p = '\n';
    int n = 1;
    do { p--; *p = '0' + v % 10; v /= 10; n++; } while (v);
    if (neg) { p--; *p = '-'; n++; }
    sys_write(1, p, n);
    return 0;
}

int puts_(char *s)
{
    int n = 0;
    while (s[n]) n++;
    sys_write(1, s, n);
    sys_write(1, "\n", 1);
    return 0;
}
#endif
