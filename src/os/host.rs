//! The host OS calls behind garm's host-side features (host mounts, host sockets, the console's
//! stdin): Unix's own on Unix hosts; elsewhere (wasm32 in a browser) stand-ins with the same
//! names that fail, so the kernel compiles unchanged and a guest sees an errno, never a panic.
//! Kernel modules import `libc`, `fd` and the `std::os::unix` extension traits from here.

#[cfg(unix)]
pub use ::libc;
#[cfg(unix)]
pub use std::os::fd;
#[cfg(unix)]
pub use std::os::unix::fs::{
    symlink, DirEntryExt, FileExt, MetadataExt, OpenOptionsExt, PermissionsExt,
};

#[cfg(not(unix))]
pub use stand_in::*;

#[cfg(not(unix))]
mod stand_in {
    use std::io;

    fn unsupported() -> io::Error {
        io::Error::new(io::ErrorKind::Unsupported, "no host OS here")
    }

    pub fn symlink(
        _target: impl AsRef<std::path::Path>,
        _at: impl AsRef<std::path::Path>,
    ) -> io::Result<()> {
        Err(unsupported())
    }

    /// Metadata as Unix reports it: zeros where the host has no such notion.
    pub trait MetadataExt {
        fn ino(&self) -> u64;
        fn mode(&self) -> u32;
        fn size(&self) -> u64;
        fn nlink(&self) -> u64;
        fn mtime(&self) -> i64;
        fn blocks(&self) -> u64;
    }

    impl MetadataExt for std::fs::Metadata {
        fn ino(&self) -> u64 {
            0
        }
        fn mode(&self) -> u32 {
            if self.is_dir() {
                0o40755
            } else {
                0o100644
            }
        }
        fn size(&self) -> u64 {
            self.len()
        }
        fn nlink(&self) -> u64 {
            1
        }
        fn mtime(&self) -> i64 {
            0
        }
        fn blocks(&self) -> u64 {
            self.len().div_ceil(512)
        }
    }

    pub trait DirEntryExt {
        fn ino(&self) -> u64;
    }

    impl DirEntryExt for std::fs::DirEntry {
        fn ino(&self) -> u64 {
            0
        }
    }

    pub trait FileExt {
        fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
    }

    impl FileExt for std::fs::File {
        fn read_at(&self, _buf: &mut [u8], _offset: u64) -> io::Result<usize> {
            Err(unsupported())
        }
    }

    pub trait OpenOptionsExt {
        fn custom_flags(&mut self, flags: i32) -> &mut Self;
    }

    impl OpenOptionsExt for std::fs::OpenOptions {
        fn custom_flags(&mut self, _flags: i32) -> &mut Self {
            self
        }
    }

    pub trait PermissionsExt {
        fn from_mode(mode: u32) -> Self;
    }

    impl PermissionsExt for std::fs::Permissions {
        fn from_mode(_mode: u32) -> Self {
            unreachable!("no host files to set permissions on")
        }
    }

    /// File descriptors of a host that has none: nothing ever opens one.
    pub mod fd {
        pub type RawFd = i32;

        #[derive(Debug)]
        pub struct OwnedFd(RawFd);

        pub trait AsRawFd {
            fn as_raw_fd(&self) -> RawFd;
        }

        pub trait FromRawFd {
            /// # Safety
            /// As Unix's: `fd` is open and owned by no one else.
            unsafe fn from_raw_fd(fd: RawFd) -> Self;
        }

        impl AsRawFd for OwnedFd {
            fn as_raw_fd(&self) -> RawFd {
                self.0
            }
        }

        impl FromRawFd for OwnedFd {
            unsafe fn from_raw_fd(fd: RawFd) -> Self {
                OwnedFd(fd)
            }
        }
    }

    /// The libc calls the kernel makes for host sockets and host files: every one fails.
    #[allow(non_camel_case_types, clippy::missing_safety_doc)]
    pub mod libc {
        pub type c_int = i32;
        pub type c_void = std::ffi::c_void;
        pub type c_char = std::ffi::c_char;
        pub type socklen_t = u32;
        pub type size_t = usize;
        pub type ssize_t = isize;

        #[repr(C)]
        pub struct sockaddr {
            pub sa_family: u16,
            pub sa_data: [u8; 14],
        }

        #[repr(C)]
        pub struct pollfd {
            pub fd: c_int,
            pub events: i16,
            pub revents: i16,
        }

        #[repr(C)]
        #[derive(Default)]
        pub struct statfs {
            pub f_type: i64,
            pub f_bsize: i64,
            pub f_blocks: u64,
            pub f_bfree: u64,
            pub f_bavail: u64,
            pub f_files: u64,
            pub f_ffree: u64,
            pub f_namelen: i64,
            pub f_frsize: i64,
            pub f_flags: i64,
        }

        pub const POLLIN: i16 = 1;
        pub const POLLOUT: i16 = 4;
        pub const O_NONBLOCK: c_int = 0o4000;
        pub const O_NOFOLLOW: c_int = 0o400000;
        pub const AT_FDCWD: c_int = -100;
        pub const RENAME_NOREPLACE: u32 = 1;
        pub const SOCK_NONBLOCK: c_int = 0o4000;
        pub const SOCK_CLOEXEC: c_int = 0o2000000;
        pub const SOL_SOCKET: c_int = 1;
        pub const SO_ERROR: c_int = 4;
        pub const MSG_PEEK: c_int = 2;
        pub const MSG_DONTWAIT: c_int = 0x40;
        pub const MSG_NOSIGNAL: c_int = 0x4000;
        pub const ENOTEMPTY: c_int = 39;

        pub unsafe extern "C" fn isatty(_fd: c_int) -> c_int {
            0
        }
        pub unsafe extern "C" fn poll(_fds: *mut pollfd, _n: u64, _timeout: c_int) -> c_int {
            -1
        }
        pub unsafe extern "C" fn statfs(_path: *const c_char, _buf: *mut statfs) -> c_int {
            -1
        }
        pub unsafe extern "C" fn renameat2(
            _a: c_int,
            _p: *const c_char,
            _b: c_int,
            _q: *const c_char,
            _flags: u32,
        ) -> c_int {
            -1
        }
        pub unsafe extern "C" fn socket(_d: c_int, _t: c_int, _p: c_int) -> c_int {
            -1
        }
        pub unsafe extern "C" fn connect(_fd: c_int, _a: *const sockaddr, _l: socklen_t) -> c_int {
            -1
        }
        pub unsafe extern "C" fn bind(_fd: c_int, _a: *const sockaddr, _l: socklen_t) -> c_int {
            -1
        }
        pub unsafe extern "C" fn listen(_fd: c_int, _n: c_int) -> c_int {
            -1
        }
        pub unsafe extern "C" fn accept4(
            _fd: c_int,
            _a: *mut sockaddr,
            _l: *mut socklen_t,
            _flags: c_int,
        ) -> c_int {
            -1
        }
        pub unsafe extern "C" fn getsockname(
            _fd: c_int,
            _a: *mut sockaddr,
            _l: *mut socklen_t,
        ) -> c_int {
            -1
        }
        pub unsafe extern "C" fn getpeername(
            _fd: c_int,
            _a: *mut sockaddr,
            _l: *mut socklen_t,
        ) -> c_int {
            -1
        }
        pub unsafe extern "C" fn shutdown(_fd: c_int, _how: c_int) -> c_int {
            -1
        }
        pub unsafe extern "C" fn setsockopt(
            _fd: c_int,
            _level: c_int,
            _name: c_int,
            _v: *const c_void,
            _l: socklen_t,
        ) -> c_int {
            -1
        }
        pub unsafe extern "C" fn getsockopt(
            _fd: c_int,
            _level: c_int,
            _name: c_int,
            _v: *mut c_void,
            _l: *mut socklen_t,
        ) -> c_int {
            -1
        }
        pub unsafe extern "C" fn sendto(
            _fd: c_int,
            _b: *const c_void,
            _n: size_t,
            _flags: c_int,
            _a: *const sockaddr,
            _l: socklen_t,
        ) -> ssize_t {
            -1
        }
        pub unsafe extern "C" fn recvfrom(
            _fd: c_int,
            _b: *mut c_void,
            _n: size_t,
            _flags: c_int,
            _a: *mut sockaddr,
            _l: *mut socklen_t,
        ) -> ssize_t {
            -1
        }
        pub unsafe extern "C" fn recv(
            _fd: c_int,
            _b: *mut c_void,
            _n: size_t,
            _flags: c_int,
        ) -> ssize_t {
            -1
        }
    }
}
