/* sieve.c: primes by a sieve on a global array, an insertion sort through pointers, a
 * checksum loop: what a small benchmark-like program does with slice 1's types. */
long sys_write(long fd, char *p, long n) { return __syscall(64, fd, p, n); }

int out_num(long v)
{
    char buf[24];
    char *p = buf + 23;
    *p = '\n';
    int n = 1;
    if (v == 0) { p--; *p = '0'; n++; }
    while (v > 0) { p--; *p = '0' + v % 10; v /= 10; n++; }
    sys_write(1, p, n);
    return 0;
}

char composite[20000];
long nums[64];

void sort(long *a, int n)
{
    for (int i = 1; i < n; i++) {
        long key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

int main(void)
{
    int count = 0;
    long sum = 0;
    for (int i = 2; i < 20000; i++) {
        if (composite[i]) continue;
        count++;
        sum += i;
        for (int j = i * 2; j < 20000; j += i) composite[j] = 1;
    }
    out_num(count);
    out_num(sum);
    long x = 12345;
    for (int i = 0; i < 64; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        nums[i] = x % 1000;
    }
    sort(nums, 64);
    int ok = 1;
    for (int i = 1; i < 64; i++) ok = ok && nums[i - 1] <= nums[i];
    out_num(ok);
    out_num(nums[0] + nums[63] * 1000);
    return count % 256;
}
