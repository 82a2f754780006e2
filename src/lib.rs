//! garm runs AArch64 programs on a GPU: A64 code is decoded once in Rust ([`isa`]) and executed by
//! a WGSL compute shader ([`gpu`]), one guest per invocation; the host loads ELF files
//! ([`loader`]), answers the syscalls the shader cannot ([`os`]) and builds guest C programs
//! ([`toolchain`]). [`run`] ties them together for the command line; [`jit`] runs the same C
//! natively as a reference oracle and [`diff`] compares the engines.

/// Writes one line of garm's own to stderr, ignoring a closed stderr (`eprintln!` would panic:
/// Rust ignores SIGPIPE, so the write fails with EPIPE).
#[macro_export]
macro_rules! elog {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        $crate::progress::clear_line();
        $crate::progress::wrote(b"\n");
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// Writes to stdout, ignoring a closed stdout (`garm isa | head -1`): `print!` would panic.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

/// [`out!`] with a newline.
#[macro_export]
macro_rules! out_ln {
    () => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout());
    }};
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

pub mod api;
#[cfg(all(unix, feature = "native"))]
pub mod bench;
#[cfg(all(unix, feature = "native"))]
pub mod diff;
pub mod error;
#[cfg(feature = "native")]
pub mod fuzz;
pub mod gdb;
pub mod gpu;
pub mod guest;
#[cfg(feature = "native")]
pub mod hostfuzz;
pub mod isa;
#[cfg(all(unix, feature = "native"))]
pub mod jit;
pub mod loader;
pub mod os;
pub mod progress;
pub mod run;
#[cfg(feature = "native")]
pub mod selfhost;
pub mod tier;
pub mod toolchain;
pub mod trace;
