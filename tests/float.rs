//! Float and double programs (guest/tests/float/*.c: n-body, mandelbrot, matrix inversion, an FFT
//! in complex double, spectral norm, statistics and qsort, printf/strtod/sscanf round trips,
//! <math.h> over many inputs, conversions at the integer limits in every rounding mode, ...)
//! built three ways: against garm's runtime (its printf/strtod/scanf/libm; garm, the native JIT
//! oracle and qemu-aarch64 agree), and against glibc and musl (garm equals qemu-aarch64), bit
//! for bit.

mod common;
use common::*;

fn all_builds(name: &str) {
    three_way(&format!("tests/float/{name}"));
    musl_sysroot();
    for libc in ["glibc", "musl"] {
        let elf = build_with(&format!("tests/float/{name}"), &["--libc", libc, "-lm"]);
        let r = same_as_qemu(&elf, &[], &[], b"");
        assert!(!r.stdout.is_empty(), "{name} ({libc}) printed nothing");
    }
}

macro_rules! programs {
    ($($name:ident),* $(,)?) => {
        const PROGRAMS: &[&str] = &[$(stringify!($name)),*];
        $(#[test] fn $name() { all_builds(stringify!($name)); })*
    };
}

programs!(
    classify,
    complex_fft,
    convlimits,
    integrate,
    libm,
    mandelbrot,
    matinv,
    matmul_f32,
    nbody,
    printf_widths,
    roundtrip,
    scanf_float,
    spectral,
    stats,
    trig_float,
);

/// Every program in the directory is listed above.
#[test]
fn float_programs_are_all_listed() {
    assert_eq!(
        c_programs("tests/float"),
        PROGRAMS,
        "guest/tests/float and the programs! list differ"
    );
}

/// The runtime's float formatting and parsing print exactly what glibc's do (the same programs,
/// both under qemu-aarch64): %f %e %g %a with every flag, strtod/strtof and scanf round trips.
#[test]
fn runtime_prints_like_glibc() {
    for name in ["printf_widths", "roundtrip", "scanf_float"] {
        let rel = format!("tests/float/{name}");
        let ours = qemu(&build(&rel), &[], &[], b"");
        let glibc = qemu(
            &build_with(&rel, &["--libc", "glibc", "-lm"]),
            &[],
            &[],
            b"",
        );
        if let Some((line, a, b)) = garm::diff::first_difference(&ours.stdout, &glibc.stdout) {
            panic!("{name}: garm's runtime differs from glibc at line {line}:\n  garm  {a}\n  glibc {b}");
        }
    }
}
