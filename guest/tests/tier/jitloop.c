/* jitloop.c: writes a hot loop into the RWX section, runs it long enough for the translation
 * tier to take it, patches its immediate and runs it again: a translation made from the old
 * bytes must never run once they have changed. */
#include <stdint.h>
#include <stdio.h>
#include <garm.h>

__attribute__((section(".garm_rwx"), aligned(4096))) static uint32_t code[64];

/* add w0, w0, #imm12 */
static uint32_t add_w0(uint32_t imm) { return 0x11000000u | (imm & 0xfff) << 10; }
#define SUBS_W1_1 0x71000421u /* subs w1, w1, #1 */
#define BNE_M8 0x54ffffc1u    /* b.ne .-8 */
#define RET 0xd65f03c0u

int main(void)
{
    typedef uint32_t (*fn_t)(uint32_t acc, uint32_t n);
    fn_t f = (fn_t)(uintptr_t)code;
    uint32_t total = 0;
    for (uint32_t k = 1; k <= 3; k++) {
        code[0] = add_w0(k);
        code[1] = SUBS_W1_1;
        code[2] = BNE_M8;
        code[3] = RET;
        garm_clear_cache(code, code + 4);
        for (int rep = 0; rep < 4; rep++) {
            uint32_t r = f(0, 100000);
            printf("k=%u rep=%d: %u\n", k, rep, r);
            total += r;
        }
    }
    printf("total %u (%s)\n", total, total == 2400000u ? "ok" : "STALE CODE EXECUTED");
    return total == 2400000u ? 0 : 1;
}
