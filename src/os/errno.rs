//! Linux errno values (asm-generic) as a type: what a guest sees, negated, in x0. Handlers
//! return `Err(Errno)`; only the syscall boundary turns it into `-errno`.

use std::fmt;

/// A guest-visible error number (positive, as Linux defines them).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Errno(pub i32);

macro_rules! errnos {
    ($($name:ident = $v:literal,)*) => {
        $(pub const $name: Errno = Errno($v);)*
        impl Errno {
            /// The symbolic name (`ENOENT`), or "" for a value garm never produces.
            pub fn name(self) -> &'static str {
                match self.0 {
                    $($v => stringify!($name),)*
                    _ => "",
                }
            }
        }
    };
}

errnos! {
    EPERM = 1,
    ENOENT = 2,
    ESRCH = 3,
    EINTR = 4,
    EIO = 5,
    ENXIO = 6,
    E2BIG = 7,
    ENOEXEC = 8,
    EBADF = 9,
    ECHILD = 10,
    EAGAIN = 11,
    ENOMEM = 12,
    EACCES = 13,
    EFAULT = 14,
    EBUSY = 16,
    EEXIST = 17,
    EXDEV = 18,
    ENOTDIR = 20,
    EISDIR = 21,
    EINVAL = 22,
    EMFILE = 24,
    ENOTTY = 25,
    EFBIG = 27,
    ENOSPC = 28,
    ESPIPE = 29,
    EROFS = 30,
    EPIPE = 32,
    ERANGE = 34,
    ENAMETOOLONG = 36,
    ENOSYS = 38,
    ENOTEMPTY = 39,
    ELOOP = 40,
    ENOTSOCK = 88,
    EDESTADDRREQ = 89,
    EMSGSIZE = 90,
    EPROTOTYPE = 91,
    ENOPROTOOPT = 92,
    EPROTONOSUPPORT = 93,
    ESOCKTNOSUPPORT = 94,
    EOPNOTSUPP = 95,
    EAFNOSUPPORT = 97,
    EADDRINUSE = 98,
    EADDRNOTAVAIL = 99,
    ECONNRESET = 104,
    EISCONN = 106,
    ENOTCONN = 107,
    ETIMEDOUT = 110,
    ECONNREFUSED = 111,
    EALREADY = 114,
    EINPROGRESS = 115,
}

impl Errno {
    /// The value a syscall returns in x0: `-errno`.
    pub fn ret(self) -> i64 {
        -(self.0 as i64)
    }

    /// The errno of a host I/O error (EIO when the host gives none).
    pub fn from_io(e: &std::io::Error) -> Errno {
        Errno(e.raw_os_error().unwrap_or(EIO.0))
    }

    /// The errno a syscall result `v` carries, if it is one (-4095..-1).
    pub fn from_ret(v: i64) -> Option<Errno> {
        (-4095..0).contains(&v).then(|| Errno(-v as i32))
    }
}

impl From<std::io::Error> for Errno {
    fn from(e: std::io::Error) -> Errno {
        Errno::from_io(&e)
    }
}

impl fmt::Debug for Errno {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.name() {
            "" => write!(f, "Errno({})", self.0),
            n => f.write_str(n),
        }
    }
}

impl fmt::Display for Errno {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_names_and_returns() {
        assert_eq!(E2BIG.ret(), -7);
        assert_eq!(ENOENT.name(), "ENOENT");
        assert_eq!(Errno::from_ret(-9), Some(EBADF));
        assert_eq!(Errno::from_ret(0), None);
        assert_eq!(Errno::from_ret(-4096), None);
        let e = std::io::Error::from_raw_os_error(libc::ENOTEMPTY);
        assert_eq!(Errno::from_io(&e), ENOTEMPTY);
        assert_eq!(format!("{:?}", Errno(200)), "Errno(200)");
    }
}
