//! The host side of the guest OS: the kernel ([`kernel`]: processes, fds, pipes, syscalls by
//! family), the syscall table ([`syscalls`]), the guest ABI ([`abi`]), errno ([`errno`]), the
//! filesystem ([`vfs`]), `--strace`, and the console ([`console`]: guest output and standard
//! input).

pub mod abi;
pub mod console;
pub mod errno;
pub mod host;
pub mod kernel;
pub mod strace;
pub mod syscalls;
pub mod vfs;

pub use console::{Broken, Output, OutputMode, Stdin};
pub use syscalls::nr;
