//! garm runs AArch64 programs on a GPU: A64 code is decoded once in Rust ([`isa`]) and executed by
//! a WGSL compute shader ([`gpu`]), one guest per invocation; the host loads ELF files
//! ([`loader`]), answers the syscalls the shader cannot ([`os`]) and builds guest C programs
//! ([`toolchain`]). [`run`] ties them together for the command line; [`jit`] runs the same C
//! natively as a reference oracle and [`diff`] compares the engines.

pub mod bench;
pub mod diff;
pub mod error;
pub mod fuzz;
pub mod gpu;
pub mod guest;
pub mod hostfuzz;
pub mod isa;
pub mod jit;
pub mod loader;
pub mod os;
pub mod run;
pub mod toolchain;
