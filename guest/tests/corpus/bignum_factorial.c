/* Bignum factorials in base 10^9 limbs, printed in full, with digit sums. */
#include <stdio.h>
#include <stdint.h>

#define LIMBS 80
static uint32_t n[LIMBS];
static int len;

static void mul(uint32_t k)
{
    uint64_t carry = 0;
    for (int i = 0; i < len; i++) {
        uint64_t t = (uint64_t)n[i] * k + carry;
        n[i] = (uint32_t)(t % 1000000000u);
        carry = t / 1000000000u;
    }
    while (carry) { n[len++] = (uint32_t)(carry % 1000000000u); carry /= 1000000000u; }
}

static void show(int k)
{
    int digits = 0, sum = 0;
    char buf[16];
    printf("%d! = %u", k, n[len - 1]);
    digits += snprintf(buf, sizeof buf, "%u", n[len - 1]);
    for (const char *c = buf; *c; c++) sum += *c - '0';
    for (int i = len - 2; i >= 0; i--) {
        printf("%09u", n[i]);
        digits += 9;
        for (uint32_t x = n[i]; x; x /= 10) sum += x % 10;
    }
    printf("\n  (%d digits, digit sum %d)\n", digits, sum);
}

int main(void)
{
    n[0] = 1;
    len = 1;
    for (uint32_t k = 1; k <= 200; k++) {
        mul(k);
        if (k == 10 || k == 25 || k == 52 || k == 100 || k == 200) show((int)k);
    }
    return 0;
}
