/* basics.c: slice 1 of garm's C compiler: integer types and their conversions, globals, arrays,
 * pointers, loops, recursion, compound assignments, string literals, sizeof, argc/argv. */
long sys_write(long fd, char *p, long n) { return __syscall(64, fd, p, n); }
int strlen_(char *s) { int n = 0; while (s[n]) n++; return n; }
int puts_(char *s) { sys_write(1, s, strlen_(s)); sys_write(1, "\n", 1); return 0; }
int print_num(long v) {
    char buf[24];
    int i = 23;
    int neg = v < 0;
    if (neg) v = -v;
    buf[i] = 0;
    do { i = i - 1; buf[i] = '0' + v % 10; v = v / 10; } while (v);
    if (neg) { i--; buf[i] = '-'; }
    puts_(buf + i);
    return 0;
}
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int g = 7;
long big = 1234567890123;
char msg[16] = "hello";
int arr[10];
int main(int argc, char **argv) {
    puts_(msg);
    print_num(fib(20));
    print_num(big * 3);
    int i;
    for (i = 0; i < 10; i++) arr[i] = i * i;
    long s = 0;
    int *p = arr;
    for (int j = 0; j < 10; j++) s += *(p + j);
    print_num(s);
    print_num(g++ + ++g);
    print_num(-17 / 5);
    print_num(-17 % 5);
    print_num(1 << 20 >> 3);
    print_num((3 > 2) + (2 >= 2) * 10 + (1 != 1) * 100);
    print_num(sizeof(int) * 100 + sizeof(long) * 10 + sizeof(char));
    print_num(argc);
    puts_(argv[0] ? "argv ok" : "no argv");
    int x = 5;
    x *= 3; x -= 1; x <<= 2; x |= 1; x ^= 3; x &= 0xff;
    print_num(x);
    int k = 0;
    while (1) { k++; if (k > 100) break; if (k % 2) continue; k += 10; }
    print_num(k);
    print_num(2147483647 + 1);
    char c = 250; c = c + 10;
    print_num(c);
    print_num(p[3] == 9 && arr[4] == 16 || 0);
    print_num(&arr[5] - &arr[1]);
    print_num(x > 5 ? 111 : 222);
    return 42;
}
