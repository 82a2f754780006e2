/* checks stdint.h exact-width types and their ranges */
#include <stdio.h>
#include <stdint.h>
int main(void)
{
    int8_t a = -128;
    uint8_t b = 255;
    int16_t c = -32768;
    uint16_t d = 65535;
    int32_t e = INT32_MIN;
    uint32_t f = UINT32_MAX;
    int64_t g = INT64_MAX;
    uint64_t h = UINT64_MAX;
    printf("%d %d %d %d %d %u\n", a, b, c, d, e, f);
    printf("%lld %llu\n", (long long)g, (unsigned long long)h);
    printf("%d %d %d %d\n", (int)sizeof a, (int)sizeof c, (int)sizeof e, (int)sizeof g);
    return 0;
}
