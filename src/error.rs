//! garm's own failures as the CLI and the orchestrators (`garm diff`, `bench`, `fuzz`) report
//! them: each layer's error enum, plus the few that belong to no layer. What a guest sees is an
//! [`crate::os::errno::Errno`], never one of these.

use std::path::PathBuf;

/// garm's own failure, whichever layer it came from.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A run could not start or go on.
    #[error(transparent)]
    Run(#[from] crate::run::RunError),
    /// The adapter or device failed.
    #[error(transparent)]
    Gpu(#[from] crate::gpu::GpuError),
    /// Building a guest program failed (clang, ld.lld, the compile cache).
    #[error(transparent)]
    Toolchain(#[from] crate::toolchain::ToolchainError),
    /// The native JIT oracle failed.
    #[cfg(all(unix, feature = "native"))]
    #[error(transparent)]
    Jit(#[from] crate::jit::JitError),
    /// A run of the program at `program` failed.
    #[error("{}: {source}", program.display())]
    Program {
        /// The program's path.
        program: PathBuf,
        /// What failed.
        source: crate::run::RunError,
    },
    /// The program file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    ProgramFile {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: crate::loader::ProgramFileError,
    },
    /// Host I/O on a path failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A host process or facility garm drives (qemu-aarch64, a pipe, a temporary directory).
    #[error("{what}: {source}")]
    Host {
        /// What garm was doing.
        what: String,
        /// What failed.
        source: std::io::Error,
    },
    /// qemu-aarch64, the reference, is not installed.
    #[error("qemu-aarch64 not found: install qemu-user (Debian: apt-get install qemu-user)")]
    NoQemu,
    /// An engine (garm, qemu-aarch64, the native JIT) did not finish a program it had to run.
    #[error("{engine} failed on {program}: {detail}")]
    EngineFailed {
        /// The engine's name.
        engine: &'static str,
        /// The program's name.
        program: String,
        /// What went wrong.
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
