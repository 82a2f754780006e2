/* divbits.c: UDIV/SDIV (W and X, zero divisors, INT_MIN / -1) and RBIT/CLZ/CLS (W and X) on
 * edge values, through inline assembly so each instruction form is exercised directly. */
#include <stdint.h>
#include <stdio.h>

#define OP2(name, insn, T)                                                          \
    static T name(T a, T b) { T r; __asm__(insn : "=r"(r) : "r"(a), "r"(b)); return r; }
#define OP1(name, insn, T)                                                          \
    static T name(T a) { T r; __asm__(insn : "=r"(r) : "r"(a)); return r; }

OP2(udivx, "udiv %0, %1, %2", uint64_t)
OP2(sdivx, "sdiv %0, %1, %2", uint64_t)
OP2(udivw, "udiv %w0, %w1, %w2", uint64_t)
OP2(sdivw, "sdiv %w0, %w1, %w2", uint64_t)
OP1(rbitx, "rbit %0, %1", uint64_t)
OP1(rbitw, "rbit %w0, %w1", uint64_t)
OP1(clzx, "clz %0, %1", uint64_t)
OP1(clzw, "clz %w0, %w1", uint64_t)
OP1(clsx, "cls %0, %1", uint64_t)
OP1(clsw, "cls %w0, %w1", uint64_t)

int main(void)
{
    static const uint64_t v[] = {0, 1, 2, 3, 7, 10, 0x7f, 0x80, 0xffff, 0x7fffffff, 0x80000000,
                                 0xffffffff, 0x100000000ull, 0x123456789abcdefull,
                                 0x7fffffffffffffffull, 0x8000000000000000ull,
                                 0xfffffffffffffffeull, 0xffffffffffffffffull, 0xdeadbeefcafef00dull};
    const int n = sizeof v / sizeof v[0];
    uint64_t h = 0;
    for (int i = 0; i < n; i++) {
        uint64_t a = v[i];
        printf("%016llx rbit %016llx %08llx clz %2llu %2llu cls %2llu %2llu\n", (unsigned long long)a,
               (unsigned long long)rbitx(a), (unsigned long long)rbitw(a), (unsigned long long)clzx(a),
               (unsigned long long)clzw(a), (unsigned long long)clsx(a), (unsigned long long)clsw(a));
        for (int j = 0; j < n; j++) {
            uint64_t b = v[j] | (uint64_t)(j & 1) << 63; /* mix in sign bits */
            h = h * 31 + udivx(a, b);
            h = h * 31 + sdivx(a, b);
            h = h * 31 + udivw(a, b);
            h = h * 31 + sdivw(a, b);
        }
    }
    printf("div hash %016llx\n", (unsigned long long)h);
    printf("INT64_MIN/-1 %llx INT32_MIN/-1 %llx x/0 %llx %llx\n",
           (unsigned long long)sdivx(0x8000000000000000ull, (uint64_t)-1),
           (unsigned long long)sdivw(0x80000000u, 0xffffffffu), (unsigned long long)udivx(5, 0),
           (unsigned long long)sdivw(5, 0));
    return 0;
}
