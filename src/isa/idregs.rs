//! The CPU garm claims to be: the ID registers Linux emulates for EL0 (MRS of MIDR, MPIDR,
//! REVIDR and the AArch64 feature registers) and AT_HWCAP/AT_HWCAP2, derived from one list of
//! what the shader executes, so a program's feature checks pick code garm runs.

/// Features garm executes, as (register, field shift, field value). Everything else reads as not
/// implemented. FP and AdvSIMD read 0 ("implemented", no half-precision arithmetic): the FP/SIMD
/// that compilers and libcs emit runs (Tier 2); what is still missing (half-precision
/// conversions, saturating and some widening AdvSIMD forms) traps with pc and word.
const FEATURES: &[(Reg, u32, u64)] = &[
    (Reg::Pfr0, PFR0_FP, 0),
    (Reg::Pfr0, PFR0_ADVSIMD, 0),
    (Reg::Isar0, ISAR0_ATOMIC, 2), // LSE: LDADD..., SWP, CAS, CASP
    (Reg::Isar1, ISAR1_LRCPC, 1),  // LDAPR
];

const PFR0_FP: u32 = 16;
const PFR0_ADVSIMD: u32 = 20;
const ISAR1_LRCPC: u32 = 20;
const ISAR0_ATOMIC: u32 = 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reg {
    Pfr0,
    Isar0,
    Isar1,
}

/// MIDR_EL1: implementer 0 ("reserved for software use"), architecture 0xF ("features in the
/// ID registers"), part and revision 0, so no libc mistakes garm for a core it tunes for.
pub const MIDR_EL1: u64 = 0x000f_0000;
/// What Linux shows for MPIDR_EL1 at EL0 (SYS_MPIDR_SAFE_VAL: only the RES1 bit).
pub const MPIDR_EL1: u64 = 1 << 31;
/// Fields Linux hides but shows at their safe value: ID_AA64PFR0 EL0 and EL1 "AArch64 only".
const PFR0_FIXED: u64 = 0x11;
/// ID_AA64DFR0 DebugVer: Linux shows the safe value, Armv8 debug.
const DFR0_FIXED: u64 = 0x6;
/// ID_AA64MMFR0 as Linux (5.12 on) shows it: TGran4 and TGran64 at their safe value 0xF, and
/// TGran{4,64,16}_2 (stage 2, hidden) at their safe value 1. (qemu 7.2 shows 0 in the latter.)
const MMFR0_FIXED: u64 = 0x0000_0111_ff00_0000;

/// HWCAP_FP, HWCAP_ASIMD: scalar FP and Advanced SIMD.
pub const HWCAP_FP: u64 = 1 << 0;
pub const HWCAP_ASIMD: u64 = 1 << 1;
/// HWCAP_ATOMICS: LSE.
pub const HWCAP_ATOMICS: u64 = 1 << 8;
/// HWCAP_CPUID: MRS of the ID registers is emulated (below).
pub const HWCAP_CPUID: u64 = 1 << 11;
/// HWCAP_LRCPC: LDAPR.
pub const HWCAP_LRCPC: u64 = 1 << 15;
/// AT_HWCAP: what garm executes, and nothing else (so glibc's IFUNCs choose the base code).
pub const HWCAP: u64 = HWCAP_FP | HWCAP_ASIMD | HWCAP_ATOMICS | HWCAP_CPUID | HWCAP_LRCPC;
/// AT_HWCAP2: none of the later features.
pub const HWCAP2: u64 = 0;

/// Linux's names for the AT_HWCAP bits (arch/arm64/kernel/cpuinfo.c), in bit order.
const HWCAP_NAMES: &[&str] = &[
    "fp", "asimd", "evtstrm", "aes", "pmull", "sha1", "sha2", "crc32", "atomics", "fphp",
    "asimdhp", "cpuid", "asimdrdm", "jscvt", "fcma", "lrcpc",
];

/// `/proc/cpuinfo` as Linux writes it for the CPU garm claims (one: each process sees one CPU,
/// as sched_getaffinity and /sys/devices/system/cpu/online say).
pub fn cpuinfo() -> String {
    let features: Vec<&str> = HWCAP_NAMES
        .iter()
        .enumerate()
        .filter(|&(b, _)| HWCAP >> b & 1 != 0)
        .map(|(_, n)| *n)
        .collect();
    format!(
        "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: {}\nCPU implementer\t: {:#04x}\n\
         CPU architecture: 8\nCPU variant\t: {:#x}\nCPU part\t: {:#05x}\nCPU revision\t: {}\n\n",
        features.join(" "),
        MIDR_EL1 >> 24 & 0xff,
        MIDR_EL1 >> 20 & 0xf,
        MIDR_EL1 >> 4 & 0xfff,
        MIDR_EL1 & 0xf
    )
}

fn features(reg: Reg) -> u64 {
    FEATURES
        .iter()
        .filter(|f| f.0 == reg)
        .fold(0, |v, &(_, shift, val)| v | val << shift)
}

/// The value MRS reads from system register op0=3 op1=0 CRn=0 CRm op2, as Linux emulates it for
/// EL0; `None` where Linux sends SIGILL (the rest of CRm=0, and CRm=1).
pub fn read(crm: u32, op2: u32) -> Option<u64> {
    let v = match (crm, op2) {
        (0, 0) => MIDR_EL1,
        (0, 5) => MPIDR_EL1,
        (0, 6) => 0, // REVIDR_EL1: IMPLEMENTATION DEFINED, shown as 0
        (0 | 1, _) => return None,
        (4, 0) => PFR0_FIXED | features(Reg::Pfr0),
        (5, 0) => DFR0_FIXED,
        (6, 0) => features(Reg::Isar0),
        (6, 1) => features(Reg::Isar1),
        (7, 0) => MMFR0_FIXED,
        // AArch32 registers (CRm 2, 3), other AArch64 feature registers, reserved slots:
        // nothing garm implements.
        (2..=7, 0..=7) => 0,
        _ => return None,
    };
    Some(v)
}

/// The HWCAP bits and the ID register fields say the same.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hwcaps_agree_with_the_id_registers() {
        let isar0 = read(6, 0).unwrap();
        assert_eq!(
            HWCAP & HWCAP_ATOMICS != 0,
            (isar0 >> ISAR0_ATOMIC) & 0xf >= 2
        );
        let isar1 = read(6, 1).unwrap();
        assert_eq!(HWCAP & HWCAP_LRCPC != 0, (isar1 >> ISAR1_LRCPC) & 0xf != 0);
        let pfr0 = read(4, 0).unwrap();
        // FP and ASIMD HWCAPs (bits 0, 1) exactly when the fields say implemented (not 0xF).
        assert_eq!(HWCAP & 1 != 0, (pfr0 >> PFR0_FP) & 0xf != 0xf);
        assert_eq!(HWCAP & 2 != 0, (pfr0 >> PFR0_ADVSIMD) & 0xf != 0xf);
        assert_eq!(read(0, 1), None);
        assert_eq!(read(1, 0), None);
    }
}
