/* selfmod.c: writes A64 code into the RWX section, runs it, patches it, runs it again. */
#include <stdint.h>
#include <stdio.h>
#include <garm.h>

/* garm.ld gives .garm_rwx its own page(s) in an R+W+X segment. */
__attribute__((section(".garm_rwx"), aligned(4096))) static uint32_t code[64];

/* movz w0, #imm16 */
static uint32_t movz_w0(uint32_t imm) { return 0x52800000u | (imm & 0xffff) << 5; }
#define RET 0xd65f03c0u

int main(void)
{
    typedef int (*fn_t)(void);
    fn_t f = (fn_t)(uintptr_t)code;

    code[0] = movz_w0(1234);
    code[1] = RET;
    garm_clear_cache(code, code + 2);
    int a = f();
    printf("first call: %d\n", a);

    code[0] = movz_w0(4321);  /* patch the immediate only */
    garm_clear_cache(code, code + 1);
    int b = f();
    printf("second call: %d\n", b);

    int ok = a == 1234 && b == 4321;
    printf("%s\n", ok ? "self-modifying code ok" : "STALE CODE EXECUTED");
    return ok ? 0 : 1;
}
