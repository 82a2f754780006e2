//! Float and double programs (guest/tests/float/*.c: n-body, mandelbrot, matrix inversion, an FFT
//! in complex double, spectral norm, statistics and qsort, printf/strtod/sscanf round trips,
//! <math.h> over many inputs, conversions at the integer limits in every rounding mode, ...)
//! built against glibc and musl: stdout and exit status equal to qemu-aarch64's, bit for bit.

mod common;
use common::*;

fn both_libcs(name: &str) {
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
        $(#[test] fn $name() { both_libcs(stringify!($name)); })*
    };
}

programs!(
    classify,
    complex_fft,
    convlimits,
    libm,
    mandelbrot,
    matinv,
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
    let mut files: Vec<String> = std::fs::read_dir(root().join("guest/tests/float"))
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".c").map(String::from))
        .collect();
    files.sort();
    assert_eq!(
        files, PROGRAMS,
        "guest/tests/float and the programs! list differ"
    );
}
