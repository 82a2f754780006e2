/* 64-bit integer edge cases, LLONG_MIN included (LLONG_MIN / -1 left out: it traps on x86). */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

static volatile int64_t sv[] = {LLONG_MIN, LLONG_MIN + 1, -4294967296L, -123456789012L, -1, 0,
                                1, 3, 4294967295L, 123456789012L, LLONG_MAX};
static volatile uint64_t uv[] = {0, 1, 2, 3, 0xffffffffUL, 0x100000000UL, 0x7fffffffffffffffUL,
                                 0x8000000000000000UL, 0xfffffffffffffffeUL, 0xffffffffffffffffUL, 10};
#define N (int)(sizeof(sv) / sizeof(sv[0]))

int main(void)
{
    for (int i = 0; i < N; i++) {
        uint64_t h = 1469598103934665603UL;
        for (int j = 0; j < N; j++) {
            int64_t a = sv[i], b = sv[j];
            uint64_t c = uv[i], d = uv[j];
            h = (h ^ ((uint64_t)a + (uint64_t)b)) * 1099511628211UL;
            h = (h ^ ((uint64_t)a * (uint64_t)b)) * 1099511628211UL;
            h = (h ^ (c * d - c)) * 1099511628211UL;
            if (b != 0 && !(a == LLONG_MIN && b == -1))
                h = (h ^ (uint64_t)(a / b) ^ ((uint64_t)(a % b) << 9)) * 1099511628211UL;
            if (d != 0)
                h = (h ^ (c / d) ^ ((c % d) << 5)) * 1099511628211UL;
            unsigned sh = (unsigned)(d & 63);
            h = (h ^ (c << sh) ^ (c >> sh) ^ (uint64_t)(a >> sh)) * 1099511628211UL;
        }
        printf("%20ld %20lu h=%016lx\n", sv[i], uv[i], h);
    }
    printf("LLONG_MIN/2=%ld LLONG_MIN%%3=%ld LLONG_MAX/-3=%ld ULONG_MAX/7=%lu\n", sv[0] / 2,
           sv[0] % 3, sv[10] / -3, uv[9] / 7);
    printf("%lld %llu %llx\n", (long long)sv[0], (unsigned long long)uv[9], 0x123456789abcdefULL);
    return 0;
}
