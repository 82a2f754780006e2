/* idregs.c: reads the ID registers Linux emulates for EL0 (MIDR, MPIDR, REVIDR and every
 * AArch64 feature register slot, op0=3 op1=0 CRn=0 CRm=4..7), one "S3_0_C0_Cm_o value" line
 * each, then AT_HWCAP and AT_HWCAP2. */
#include <stdio.h>
#include <garm.h>

#define SHOW(crm, op2)                                                                         \
    do {                                                                                       \
        unsigned long v;                                                                       \
        __asm__ volatile("mrs %0, s3_0_c0_c" #crm "_" #op2 : "=r"(v));                         \
        printf("S3_0_C0_C%d_%d %016lx\n", crm, op2, v);                                        \
    } while (0)
#define ROW(crm)                                                                               \
    SHOW(crm, 0);                                                                              \
    SHOW(crm, 1);                                                                              \
    SHOW(crm, 2);                                                                              \
    SHOW(crm, 3);                                                                              \
    SHOW(crm, 4);                                                                              \
    SHOW(crm, 5);                                                                              \
    SHOW(crm, 6);                                                                              \
    SHOW(crm, 7)

int main(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    SHOW(0, 0); /* MIDR_EL1 */
    SHOW(0, 5); /* MPIDR_EL1 */
    SHOW(0, 6); /* REVIDR_EL1 */
    ROW(4);
    ROW(5);
    ROW(6);
    ROW(7);
    while (*envp)
        envp++;
    for (unsigned long *aux = (unsigned long *)(envp + 1); aux[0]; aux += 2)
        if (aux[0] == 16 || aux[0] == 26)
            printf("AT_HWCAP%s %016lx\n", aux[0] == 26 ? "2" : "", aux[1]);
    return 0;
}
