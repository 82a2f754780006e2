//! `--strace`: one line per host-handled syscall in qemu's manner, `pid name(args) = result`,
//! with the argument formats from the syscall table.

use super::errno::Errno;
use super::kernel::{read_cstr, Pid};
use super::{syscalls, Output};
use crate::guest::Guest;

/// Formats the arguments by the table's formats (hex for every argument of an unknown call).
pub fn render_args(g: &mut dyn Guest, slot: usize, n: u64, a: &[u64; 6]) -> String {
    let spec = syscalls::lookup(n).map_or("xxxxxx", |s| s.args);
    spec.chars()
        .zip(a.iter())
        .map(|(c, &v)| match c {
            'd' => (v as i64).to_string(),
            'o' => format!("{v:#o}"),
            's' => match read_cstr(g, slot, v) {
                Ok(s) => format!("{s:?}"),
                Err(_) => format!("{v:#x}"),
            },
            _ => format!("{v:#x}"),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A result as qemu's strace shows it: the value, or -1 with the errno and its name.
pub fn render_result(v: i64) -> String {
    match Errno::from_ret(v) {
        Some(e) => format!("-1 errno={} ({})", e.0, e.name()),
        None => v.to_string(),
    }
}

/// Prints one line (prefixed `[i] ` when there are several instances).
pub fn line(out: &Output, inst: usize, pid: Pid, n: u64, args: &str, r: &str) {
    let prefix = if out.instances() > 1 {
        format!("[{inst}] ")
    } else {
        String::new()
    };
    crate::elog!("{prefix}{pid} {}({args}) = {r}", syscalls::name(n));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guest::{Guest, MemGuest, Perm};
    use crate::os::nr;

    #[test]
    fn arguments_follow_the_table() {
        let mut g = MemGuest::new(1, 1 << 20);
        g.map(0, 0x20000, 0x1000, Perm::RW, false).unwrap();
        g.write_mem(0, 0x20000, b"/etc/passwd\0").unwrap();
        let s = render_args(
            &mut g,
            0,
            nr::OPENAT,
            &[(-100i64) as u64, 0x20000, 0x241, 0o644, 0, 0],
        );
        assert_eq!(s, "-100,\"/etc/passwd\",0x241,0o644");
        assert_eq!(render_args(&mut g, 0, nr::GETPID, &[1, 2, 3, 4, 5, 6]), "");
        // A bad string pointer shows as its address.
        assert_eq!(
            render_args(&mut g, 0, nr::CHDIR, &[8, 0, 0, 0, 0, 0]),
            "0x8"
        );
        assert_eq!(
            render_args(&mut g, 0, 999, &[1, 2, 3, 4, 5, 6]),
            "0x1,0x2,0x3,0x4,0x5,0x6"
        );
    }

    #[test]
    fn results_name_their_errno() {
        assert_eq!(render_result(3), "3");
        assert_eq!(render_result(-2), "-1 errno=2 (ENOENT)");
        assert_eq!(render_result(-39), "-1 errno=39 (ENOTEMPTY)");
        assert_eq!(render_result(-5000), "-5000");
    }
}
