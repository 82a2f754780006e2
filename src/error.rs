//! garm's own failures as the CLI and the orchestrators (`garm diff`, `bench`, `fuzz`) report
//! them: each layer's error enum, plus the few that belong to no layer. What a guest sees is an
//! [`crate::os::errno::Errno`], never one of these.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Run(#[from] crate::run::RunError),
    #[error(transparent)]
    Gpu(#[from] crate::gpu::GpuError),
    #[error(transparent)]
    Toolchain(#[from] crate::toolchain::ToolchainError),
    #[error(transparent)]
    Jit(#[from] crate::jit::JitError),
    /// A run of the program at `program` failed.
    #[error("{}: {source}", program.display())]
    Program {
        program: PathBuf,
        source: crate::run::RunError,
    },
    #[error("cannot read {}: {source}", path.display())]
    ProgramFile {
        path: PathBuf,
        source: crate::loader::ProgramFileError,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A host process or facility garm drives (qemu-aarch64, a pipe, a temporary directory).
    #[error("{what}: {source}")]
    Host {
        what: String,
        source: std::io::Error,
    },
    /// qemu-aarch64, the reference, is not installed.
    #[error("qemu-aarch64 not found: install qemu-user (Debian: apt-get install qemu-user)")]
    NoQemu,
    /// An engine (garm, qemu-aarch64, the native JIT) did not finish a program it had to run.
    #[error("{engine} failed on {program}: {detail}")]
    EngineFailed {
        engine: &'static str,
        program: String,
        detail: String,
    },
    /// A command-line value garm cannot use (the message says which and why).
    #[error("{0}")]
    Usage(String),
}

impl Error {
    /// Wraps a host I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }

    /// Wraps a host I/O error with what garm was doing.
    pub fn host(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let what = what.into();
        move |source| Error::Host { what, source }
    }
}
