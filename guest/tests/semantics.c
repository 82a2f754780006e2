/* semantics.c: the A64 corner cases engines get wrong (ISA.md), one line each, compared with
 * qemu-aarch64 by tests/semantics.rs. Words an assembler would refuse (unpredictable forms) are
 * written with .inst; registers are pinned so each check runs exactly the instruction named. */
#include <stdio.h>
#include <stdint.h>

typedef unsigned long long u64;

#define R(n) register u64 n asm(#n)

static unsigned char page_pair[8192] __attribute__((aligned(4096)));

static void w_forms(void)
{
    /* W-form results zero the upper 32 bits, whatever the operation. */
    R(x0); R(x1) = 0xdeadbeef00000001ull; R(x2) = 0xffffffff00000002ull;
    asm volatile("add w0, w1, w2" : "=r"(x0) : "r"(x1), "r"(x2));
    printf("add w: %016llx\n", x0);
    asm volatile("orr w0, w1, #0xf0" : "=r"(x0) : "r"(x1));
    printf("orr w imm: %016llx\n", x0);
    asm volatile("mov w0, w1" : "=r"(x0) : "r"(x1));
    printf("mov w: %016llx\n", x0);
    asm volatile("ubfx w0, w2, #1, #31" : "=r"(x0) : "r"(x2));
    printf("ubfx w: %016llx\n", x0);
    asm volatile("csinv w0, w1, w2, ne" : "=r"(x0) : "r"(x1), "r"(x2));
    printf("csinv w: %016llx\n", x0);
    asm volatile("mul w0, w1, w2" : "=r"(x0) : "r"(x1), "r"(x2));
    printf("mul w: %016llx\n", x0);
    /* W-form shifted operands shift the 32-bit value: upper bits never come down. */
    x2 = 0x1234567880000000ull;
    asm volatile("add w0, w1, w2, lsr #4" : "=r"(x0) : "r"(x1), "r"(x2));
    printf("add w lsr: %016llx\n", x0);
    asm volatile("sub w0, w1, w2, asr #8" : "=r"(x0) : "r"(x1), "r"(x2));
    printf("sub w asr: %016llx\n", x0);
    asm volatile("eor w0, w1, w2, ror #12" : "=r"(x0) : "r"(x1), "r"(x2));
    printf("eor w ror: %016llx\n", x0);
    asm volatile("lsr w0, w2, w1" : "=r"(x0) : "r"(x1), "r"(x2));
    printf("lsrv w: %016llx\n", x0);
    asm volatile("asr w0, w2, #3" : "=r"(x0) : "r"(x2));
    printf("asr w imm: %016llx\n", x0);
}

static void reg31(void)
{
    /* Register 31 is SP as the base of ADD (immediate/extended), XZR in ADD (shifted). */
    R(x0); R(x1) = 5; R(x3);
    asm volatile(".inst 0x8b0103e0" : "=r"(x0) : "r"(x1)); /* add x0, xzr, x1 (shifted) */
    printf("add xzr shifted: %llx\n", x0);
    asm volatile(".inst 0x8b2163e0\n mov x3, sp" : "=r"(x0), "=r"(x3) : "r"(x1)); /* add x0, sp, x1 */
    printf("add sp extended: sp+%llx\n", x0 - x3);
    asm volatile("add x0, sp, #3\n mov x3, sp" : "=r"(x0), "=r"(x3));
    printf("add sp imm: sp+%llx\n", x0 - x3);
    asm volatile("orr x0, xzr, #7" : "=r"(x0));
    printf("orr xzr: %llx\n", x0);
    asm volatile("mov x0, #9\n adds xzr, x0, #1\n cset x0, ne" : "=r"(x0));
    printf("adds to xzr discards: %llx\n", x0);
    asm volatile("mov x0, #9\n ldr xzr, [sp]\n" : "=r"(x0));
    printf("ldr xzr keeps x0: %llx\n", x0);
}

static const u64 edge[] = {0, 1, 0x7fffffffull, 0x80000000ull, 0xffffffffull,
                           0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull};
#define NEDGE (sizeof edge / sizeof edge[0])

static void flags(void)
{
    /* NZCV from the true carry and signed overflow, X and W, with carry in. */
    R(x0); R(x1); R(x2); R(x3);
    u64 h = 0;
    for (unsigned i = 0; i < NEDGE; i++)
        for (unsigned j = 0; j < NEDGE; j++)
            for (unsigned c = 0; c < 2; c++) {
                x1 = edge[i]; x2 = edge[j]; x3 = c << 29;
#define F(insn)                                                                               \
    asm volatile("msr nzcv, x3\n " insn "\n mrs x0, nzcv" : "=r"(x0), "+r"(x1) : "r"(x2), "r"(x3)); \
    h = h * 31 + (x0 >> 28);                                                                  \
    if (i == 5 && j == 1 && c == 1) printf("%-20s nzcv %llx\n", insn, x0 >> 28);
                F("adds x1, x1, x2") F("subs x1, x1, x2") F("adcs x1, x1, x2")
                F("sbcs x1, x1, x2") F("adds w1, w1, w2") F("subs w1, w1, w2")
                F("adcs w1, w1, w2") F("sbcs w1, w1, w2") F("cmn x1, x2")
                F("ccmp w1, w2, #5, cs") F("negs x1, x2") F("ngcs w1, w2")
            }
    printf("flag hash: %016llx\n", h);
}

static void writeback(void)
{
    /* Pre/post-index writeback with Rt == Rn (stores store the old base; loads: as qemu). */
    static u64 buf[8] = {11, 22, 33, 44, 55, 66, 77, 88};
    R(x0); R(x1);
    x1 = (u64)&buf[0];
    asm volatile(".inst 0xf8408c21" : "+r"(x1) :: "memory"); /* ldr x1, [x1, #8]! */
    printf("ldr rt==rn pre: %llx\n", x1 < 1000 ? x1 : x1 - (u64)buf);
    x1 = (u64)&buf[2];
    asm volatile(".inst 0xf8408421" : "+r"(x1) :: "memory"); /* ldr x1, [x1], #8 */
    printf("ldr rt==rn post: %llx\n", x1 < 1000 ? x1 : x1 - (u64)buf);
    x1 = (u64)&buf[4];
    asm volatile(".inst 0xf8008c21" : "+r"(x1) :: "memory"); /* str x1, [x1, #8]! */
    printf("str rt==rn pre: base+%llx stored base+%llx\n", x1 - (u64)buf, buf[5] - (u64)buf);
    x1 = (u64)&buf[6];
    asm volatile(".inst 0xf8008421" : "+r"(x1) :: "memory"); /* str x1, [x1], #8 */
    printf("str rt==rn post: base+%llx stored base+%llx\n", x1 - (u64)buf, buf[6] - (u64)buf);
    /* LDP with Rt == Rt2. */
    buf[0] = 0x1111; buf[1] = 0x2222;
    x1 = (u64)&buf[0];
    asm volatile(".inst 0xa9400020" : "=r"(x0) : "r"(x1) : "memory"); /* ldp x0, x0, [x1] */
    printf("ldp rt==rt2: %llx\n", x0);
    asm volatile("ldp x1, x0, [x1]" : "=r"(x0), "+r"(x1) :: "memory");
    printf("ldp rt==rn (no wb): %llx %llx\n", x1, x0);
}

static void sign_ext(void)
{
    /* LDRSB/LDRSH into W (upper half zero) versus X; LDRSW. */
    static unsigned char b[8] = {0x80, 0xff, 0x7f, 0x00, 0x00, 0x80, 0xff, 0xff};
    R(x0); R(x1) = (u64)b;
    asm volatile("ldrsb w0, [x1]" : "=r"(x0) : "r"(x1)); printf("ldrsb w: %016llx\n", x0);
    asm volatile("ldrsb x0, [x1]" : "=r"(x0) : "r"(x1)); printf("ldrsb x: %016llx\n", x0);
    asm volatile("ldrsh w0, [x1]" : "=r"(x0) : "r"(x1)); printf("ldrsh w: %016llx\n", x0);
    asm volatile("ldrsh x0, [x1, #4]" : "=r"(x0) : "r"(x1)); printf("ldrsh x: %016llx\n", x0);
    asm volatile("ldrsw x0, [x1, #4]" : "=r"(x0) : "r"(x1)); printf("ldrsw: %016llx\n", x0);
    asm volatile("ldursh w0, [x1, #1]" : "=r"(x0) : "r"(x1)); printf("ldursh w unaligned: %016llx\n", x0);
}

static void tbz(void)
{
    /* TBZ/TBNZ test bits above 31 of X registers. */
    R(x0); R(x1) = 1ull << 40;
    asm volatile("mov x0, #0\n tbz x1, #40, 1f\n mov x0, #1\n1:" : "=r"(x0) : "r"(x1));
    printf("tbz #40 set: %llx\n", x0);
    asm volatile("mov x0, #0\n tbnz x1, #39, 1f\n mov x0, #1\n1:" : "=r"(x0) : "r"(x1));
    printf("tbnz #39 clear: %llx\n", x0);
    asm volatile("mov x0, #0\n tbnz x1, #63, 1f\n mov x0, #1\n1:" : "=r"(x0) : "r"(x1));
    printf("tbnz #63 clear: %llx\n", x0);
    x1 = 0xffffffff00000000ull;
    asm volatile("mov x0, #0\n cbz w1, 1f\n mov x0, #1\n1:" : "=r"(x0) : "r"(x1));
    printf("cbz w on upper-only: %llx\n", x0);
}

static void unaligned(void)
{
    /* Unaligned accesses, including across a page boundary. */
    R(x0); R(x1); R(x2) = 0x0102030405060708ull; R(x3) = 0x1112131415161718ull;
    for (int i = 0; i < 32; i++) page_pair[4080 + i] = (unsigned char)(0xa0 + i);
    x1 = (u64)&page_pair[4093];
    asm volatile("ldr x0, [x1]" : "=r"(x0) : "r"(x1)); printf("ldr across page: %016llx\n", x0);
    asm volatile("ldrh w0, [x1, #2]" : "=r"(x0) : "r"(x1)); printf("ldrh across page: %016llx\n", x0);
    asm volatile("str x2, [x1]" :: "r"(x1), "r"(x2) : "memory");
    x1 -= 7;
    asm volatile("stp x2, x3, [x1]" :: "r"(x1), "r"(x2), "r"(x3) : "memory");
    x1 += 2;
    asm volatile("ldp x0, x2, [x1]" : "=r"(x0), "+r"(x2) : "r"(x1) : "memory");
    printf("ldp across page: %016llx %016llx\n", x0, x2);
    for (int i = 0; i < 32; i++) printf("%02x", page_pair[4080 + i]);
    printf("\n");
}

static void sysregs_and_exclusives(void)
{
    R(x0); R(x1); R(x2); R(x3);
    /* FPCR/FPSR keep only their defined bits (found by fuzzing: garm kept them all). */
    x1 = ~0ull;
    asm volatile("msr fpcr, x1\n mrs x0, fpcr\n msr fpcr, xzr" : "=r"(x0) : "r"(x1));
    printf("fpcr: %llx\n", x0);
    asm volatile("msr fpsr, x1\n mrs x0, fpsr\n msr fpsr, xzr" : "=r"(x0) : "r"(x1));
    printf("fpsr: %llx\n", x0);
    /* Exclusive pairs: LDXP/STXP succeed after a matching load, fail without one. */
    static u64 pr[2] __attribute__((aligned(16))) = {0x5555, 0x6666};
    x1 = (u64)pr;
    asm volatile("ldxp x2, x3, [x1]\n mov x0, #0x77\n stxp w0, x3, x2, [x1]"
                 : "=r"(x0), "=r"(x2), "=r"(x3) : "r"(x1) : "memory");
    printf("stxp after ldxp: status %llx, read %llx %llx, now %llx %llx\n", x0, x2, x3, pr[0], pr[1]);
    asm volatile("clrex\n mov x2, #1\n stlxp w0, x2, x2, [x1]" : "=r"(x0), "=r"(x2) : "r"(x1) : "memory");
    printf("stlxp without monitor: status %llx, now %llx %llx\n", x0, pr[0], pr[1]);
    static uint32_t pw[2] __attribute__((aligned(8))) = {0xaaaa, 0xbbbb};
    x1 = (u64)pw;
    asm volatile("ldaxp w2, w3, [x1]\n stlxp w0, w3, w2, [x1]"
                 : "=r"(x0), "=r"(x2), "=r"(x3) : "r"(x1) : "memory");
    printf("w pair swap: status %llx, now %x %x\n", x0, pw[0], pw[1]);
}

int main(void)
{
    w_forms();
    reg31();
    flags();
    writeback();
    sign_ext();
    tbz();
    unaligned();
    sysregs_and_exclusives();
    return 0;
}
