//! Paths: openat, stat, directories, links, renames, getdents64, the working directory.

use super::*;

const RW_CREAT: u64 = O_RDWR | O_CREAT;

pub(super) fn at(t: &mut T, n: u64, path: &str, rest: &[u64]) -> i64 {
    let p = t.cstr(BUF + 0x2000, path);
    let mut a = vec![AT_FDCWD as u64, p];
    a.extend_from_slice(rest);
    t.call(n, &a)
}

pub(super) fn stat(t: &mut T, path: &str, flags: u64) -> Result<Stat, Errno> {
    let r = at(t, nr::NEWFSTATAT, path, &[BUF, flags]);
    match Errno::from_ret(r) {
        Some(e) => Err(e),
        None => Ok(t.get_obj(BUF)),
    }
}

#[test]
fn open_of_a_missing_file_is_enoent() {
    let mut t = T::new();
    assert_eq!(t.open("/tmp/none", 0, 0), ENOENT.ret());
    assert_eq!(t.open("/nodir/x", RW_CREAT, 0o644), ENOENT.ret());
}

#[test]
fn open_with_a_bad_path_pointer_is_efault() {
    let mut t = T::new();
    assert_eq!(
        t.call(nr::OPENAT, &[AT_FDCWD as u64, BAD, 0, 0]),
        EFAULT.ret()
    );
}

#[test]
fn open_of_a_too_long_path_is_enametoolong() {
    let mut t = T::new();
    let long = "a/".repeat(3000);
    assert_eq!(t.open(&long, 0, 0), ENAMETOOLONG.ret());
}

#[test]
fn path_at_the_end_of_memory_without_nul_is_efault() {
    let mut t = T::new();
    let end = MEM as u64 - 4;
    t.put(end, b"abcd");
    assert_eq!(
        t.call(nr::OPENAT, &[AT_FDCWD as u64, end, 0, 0]),
        EFAULT.ret()
    );
}

#[test]
fn o_creat_o_excl_on_an_existing_file_is_eexist() {
    let mut t = T::new();
    assert!(t.open("/tmp/x", RW_CREAT, 0o644) >= 0);
    assert_eq!(t.open("/tmp/x", RW_CREAT | O_EXCL, 0o644), EEXIST.ret());
}

#[test]
fn o_creat_o_excl_of_a_new_name_succeeds() {
    let mut t = T::new();
    assert_eq!(t.open("/tmp/new", RW_CREAT | O_EXCL, 0o600), 3);
}

#[test]
fn o_trunc_empties_the_file() {
    let mut t = T::new();
    let fd = t.open("/tmp/x", RW_CREAT, 0o644);
    t.write_fd(fd, b"data");
    t.open("/tmp/x", O_WRONLY | O_TRUNC, 0);
    assert_eq!(stat(&mut t, "/tmp/x", 0).unwrap().size, 0);
}

#[test]
fn o_directory_on_a_file_is_enotdir() {
    let mut t = T::new();
    t.open("/tmp/f", RW_CREAT, 0o644);
    assert_eq!(t.open("/tmp/f", O_DIRECTORY, 0), ENOTDIR.ret());
}

#[test]
fn opening_a_directory_for_writing_is_eisdir() {
    let mut t = T::new();
    assert_eq!(t.open("/tmp", O_RDWR, 0), EISDIR.ret());
}

#[test]
fn a_file_is_not_a_directory_in_a_path() {
    let mut t = T::new();
    t.open("/tmp/f", RW_CREAT, 0o644);
    assert_eq!(t.open("/tmp/f/g", 0, 0), ENOTDIR.ret());
}

#[test]
fn umask_applies_to_new_files() {
    let mut t = T::new();
    assert_eq!(t.call(nr::UMASK, &[0o077]), 0o022);
    t.open("/tmp/m", RW_CREAT, 0o666);
    assert_eq!(stat(&mut t, "/tmp/m", 0).unwrap().mode & 0o777, 0o600);
    assert_eq!(t.call(nr::UMASK, &[0o022]), 0o077);
}

#[test]
fn stat_of_a_file() {
    let mut t = T::new();
    let fd = t.open("/tmp/s", RW_CREAT, 0o644);
    t.write_fd(fd, &[1; 1000]);
    let s = stat(&mut t, "/tmp/s", 0).unwrap();
    assert_eq!(s.mode, crate::os::vfs::S_IFREG | 0o644);
    assert_eq!(s.size, 1000);
    assert_eq!(s.blocks, 8, "one 4 KiB page in 512-byte units");
    assert_eq!(s.blksize, 4096);
    assert_eq!(s.nlink, 1);
}

#[test]
fn stat_of_a_directory() {
    let mut t = T::new();
    let s = stat(&mut t, "/tmp", 0).unwrap();
    assert_eq!(s.mode & crate::os::vfs::S_IFMT, crate::os::vfs::S_IFDIR);
}

#[test]
fn stat_errors() {
    let mut t = T::new();
    assert_eq!(stat(&mut t, "/none", 0), Err(ENOENT));
    let p = t.cstr(BUF + 0x2000, "/tmp");
    assert_eq!(
        t.call(nr::NEWFSTATAT, &[AT_FDCWD as u64, p, BAD, 0]),
        EFAULT.ret()
    );
    assert_eq!(
        t.call(nr::NEWFSTATAT, &[AT_FDCWD as u64, BAD, BUF, 0]),
        EFAULT.ret()
    );
}

#[test]
fn fstat_and_empty_path_stat_agree() {
    let mut t = T::new();
    let fd = t.open("/tmp/e", RW_CREAT, 0o640) as u64;
    t.write_fd(fd as i64, b"12345");
    assert_eq!(t.call(nr::FSTAT, &[fd, BUF]), 0);
    let a: Stat = t.get_obj(BUF);
    let p = t.cstr(BUF + 0x2000, "");
    assert_eq!(t.call(nr::NEWFSTATAT, &[fd, p, BUF, AT_EMPTY_PATH]), 0);
    let b: Stat = t.get_obj(BUF);
    assert_eq!(a, b);
    assert_eq!(a.size, 5);
}

#[test]
fn empty_path_without_the_flag_is_enoent() {
    let mut t = T::new();
    assert_eq!(stat(&mut t, "", 0), Err(ENOENT));
}

#[test]
fn fstat_errors() {
    let mut t = T::new();
    assert_eq!(t.call(nr::FSTAT, &[77, BUF]), EBADF.ret());
    assert_eq!(t.call(nr::FSTAT, &[1, BAD]), EFAULT.ret());
}

#[test]
fn fstat_of_a_pipe_is_a_fifo() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    assert_eq!(t.call(nr::FSTAT, &[3, BUF]), 0);
    let s: Stat = t.get_obj(BUF);
    assert_eq!(s.mode & crate::os::vfs::S_IFMT, crate::os::vfs::S_IFIFO);
}

#[test]
fn statx_fills_the_basic_fields() {
    let mut t = T::new();
    let fd = t.open("/tmp/x", RW_CREAT, 0o644);
    t.write_fd(fd, b"abc");
    let p = t.cstr(BUF + 0x2000, "/tmp/x");
    assert_eq!(t.call(nr::STATX, &[AT_FDCWD as u64, p, 0, 0x7ff, BUF]), 0);
    let x: Statx = t.get_obj(BUF);
    assert_eq!(x.size, 3);
    assert_eq!(x.mask, STATX_BASIC_STATS);
    assert_eq!(x.mode as u32, crate::os::vfs::S_IFREG | 0o644);
}

#[test]
fn mkdir_then_rmdir() {
    let mut t = T::new();
    assert_eq!(at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]), 0);
    assert_eq!(at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]), EEXIST.ret());
    assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/d", &[0]), EISDIR.ret());
    assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/d", &[AT_REMOVEDIR]), 0);
    assert_eq!(stat(&mut t, "/tmp/d", 0), Err(ENOENT));
}

#[test]
fn mkdir_in_a_missing_parent_is_enoent() {
    let mut t = T::new();
    assert_eq!(at(&mut t, nr::MKDIRAT, "/tmp/no/d", &[0o755]), ENOENT.ret());
}

#[test]
fn rmdir_of_a_non_empty_directory_is_enotempty() {
    let mut t = T::new();
    at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]);
    t.open("/tmp/d/f", RW_CREAT, 0o644);
    assert_eq!(
        at(&mut t, nr::UNLINKAT, "/tmp/d", &[AT_REMOVEDIR]),
        ENOTEMPTY.ret()
    );
}

#[test]
fn rmdir_of_a_file_is_enotdir() {
    let mut t = T::new();
    t.open("/tmp/f", RW_CREAT, 0o644);
    assert_eq!(
        at(&mut t, nr::UNLINKAT, "/tmp/f", &[AT_REMOVEDIR]),
        ENOTDIR.ret()
    );
}

#[test]
fn unlink_removes_the_name_but_an_open_fd_still_reads() {
    let mut t = T::new();
    let fd = t.open("/tmp/u", RW_CREAT, 0o644);
    t.write_fd(fd, b"kept");
    assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/u", &[0]), 0);
    assert_eq!(t.open("/tmp/u", 0, 0), ENOENT.ret());
    t.call(nr::LSEEK, &[fd as u64, 0, 0]);
    assert_eq!(t.read_fd(fd, 10).unwrap(), b"kept");
}

#[test]
fn unlink_of_a_missing_name_is_enoent() {
    let mut t = T::new();
    assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/none", &[0]), ENOENT.ret());
}

#[test]
fn symlink_and_readlink() {
    let mut t = T::new();
    let target = t.cstr(BUF + 0x100, "/tmp/real");
    let link = t.cstr(BUF + 0x200, "/tmp/ln");
    assert_eq!(t.call(nr::SYMLINKAT, &[target, AT_FDCWD as u64, link]), 0);
    assert_eq!(
        t.call(nr::SYMLINKAT, &[target, AT_FDCWD as u64, link]),
        EEXIST.ret()
    );
    assert_eq!(at(&mut t, nr::READLINKAT, "/tmp/ln", &[BUF2, 100]), 9);
    assert_eq!(t.get(BUF2, 9), b"/tmp/real");
    assert_eq!(
        at(&mut t, nr::READLINKAT, "/tmp/ln", &[BUF2, 4]),
        4,
        "truncated, no NUL"
    );
}

#[test]
fn readlink_errors() {
    let mut t = T::new();
    t.open("/tmp/f", RW_CREAT, 0o644);
    assert_eq!(
        at(&mut t, nr::READLINKAT, "/tmp/f", &[BUF2, 100]),
        EINVAL.ret()
    );
    assert_eq!(
        at(&mut t, nr::READLINKAT, "/tmp/none", &[BUF2, 100]),
        ENOENT.ret()
    );
    assert_eq!(
        at(&mut t, nr::READLINKAT, "/tmp/f", &[BUF2, 0]),
        EINVAL.ret()
    );
}

#[test]
fn proc_self_exe_names_the_program() {
    let mut t = T::new();
    let n = at(&mut t, nr::READLINKAT, "/proc/self/exe", &[BUF2, 100]);
    assert_eq!(t.get(BUF2, n as usize), b"/prog");
}

#[test]
fn open_follows_symlinks_and_o_nofollow_refuses() {
    let mut t = T::new();
    let fd = t.open("/tmp/real", RW_CREAT, 0o644);
    t.write_fd(fd, b"via link");
    let target = t.cstr(BUF + 0x100, "real");
    let link = t.cstr(BUF + 0x200, "/tmp/ln");
    t.call(nr::SYMLINKAT, &[target, AT_FDCWD as u64, link]);
    let f2 = t.open("/tmp/ln", 0, 0);
    assert_eq!(t.read_fd(f2, 20).unwrap(), b"via link");
    assert_eq!(t.open("/tmp/ln", O_NOFOLLOW, 0), ELOOP.ret());
}

#[test]
fn lstat_sees_the_link_itself() {
    let mut t = T::new();
    t.open("/tmp/real", RW_CREAT, 0o644);
    let target = t.cstr(BUF + 0x100, "real");
    let link = t.cstr(BUF + 0x200, "/tmp/ln");
    t.call(nr::SYMLINKAT, &[target, AT_FDCWD as u64, link]);
    let s = stat(&mut t, "/tmp/ln", AT_SYMLINK_NOFOLLOW).unwrap();
    assert_eq!(s.mode & crate::os::vfs::S_IFMT, crate::os::vfs::S_IFLNK);
    let s = stat(&mut t, "/tmp/ln", 0).unwrap();
    assert_eq!(s.mode & crate::os::vfs::S_IFMT, crate::os::vfs::S_IFREG);
}

#[test]
fn symlink_loops_are_eloop() {
    let mut t = T::new();
    let a = t.cstr(BUF + 0x100, "/tmp/b");
    let la = t.cstr(BUF + 0x200, "/tmp/a");
    t.call(nr::SYMLINKAT, &[a, AT_FDCWD as u64, la]);
    let b = t.cstr(BUF + 0x300, "/tmp/a");
    let lb = t.cstr(BUF + 0x400, "/tmp/b");
    t.call(nr::SYMLINKAT, &[b, AT_FDCWD as u64, lb]);
    assert_eq!(t.open("/tmp/a", 0, 0), ELOOP.ret());
}

pub(super) fn rename(t: &mut T, n: u64, from: &str, to: &str, flags: u64) -> i64 {
    let f = t.cstr(BUF + 0x100, from);
    let g = t.cstr(BUF + 0x200, to);
    t.call(n, &[AT_FDCWD as u64, f, AT_FDCWD as u64, g, flags])
}

#[test]
fn rename_moves_a_file() {
    let mut t = T::new();
    t.open("/tmp/a", RW_CREAT, 0o644);
    assert_eq!(rename(&mut t, nr::RENAMEAT, "/tmp/a", "/tmp/b", 0), 0);
    assert_eq!(stat(&mut t, "/tmp/a", 0), Err(ENOENT));
    assert!(stat(&mut t, "/tmp/b", 0).is_ok());
}

#[test]
fn rename_replaces_unless_noreplace() {
    let mut t = T::new();
    t.open("/tmp/a", RW_CREAT, 0o644);
    t.open("/tmp/b", RW_CREAT, 0o644);
    assert_eq!(
        rename(&mut t, nr::RENAMEAT2, "/tmp/a", "/tmp/b", 1),
        EEXIST.ret()
    );
    assert_eq!(rename(&mut t, nr::RENAMEAT2, "/tmp/a", "/tmp/b", 0), 0);
}

#[test]
fn rename_of_a_missing_file_is_enoent() {
    let mut t = T::new();
    assert_eq!(
        rename(&mut t, nr::RENAMEAT, "/tmp/no", "/tmp/b", 0),
        ENOENT.ret()
    );
}

#[test]
fn a_directory_cannot_move_below_itself() {
    let mut t = T::new();
    at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]);
    at(&mut t, nr::MKDIRAT, "/tmp/d/e", &[0o755]);
    assert_eq!(
        rename(&mut t, nr::RENAMEAT, "/tmp/d", "/tmp/d/e/f", 0),
        EINVAL.ret()
    );
}

#[test]
fn link_makes_a_second_name() {
    let mut t = T::new();
    let fd = t.open("/tmp/a", RW_CREAT, 0o644);
    t.write_fd(fd, b"same");
    assert_eq!(rename(&mut t, nr::LINKAT, "/tmp/a", "/tmp/b", 0), 0);
    let f2 = t.open("/tmp/b", 0, 0);
    assert_eq!(t.read_fd(f2, 10).unwrap(), b"same");
    assert_eq!(
        rename(&mut t, nr::LINKAT, "/tmp/a", "/tmp/b", 0),
        EEXIST.ret()
    );
}

#[test]
fn hard_links_to_directories_are_eperm() {
    let mut t = T::new();
    at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]);
    assert_eq!(
        rename(&mut t, nr::LINKAT, "/tmp/d", "/tmp/e", 0),
        EPERM.ret()
    );
}

#[test]
fn getcwd_chdir_and_relative_paths() {
    let mut t = T::new();
    assert_eq!(t.call(nr::GETCWD, &[BUF, 100]), 2);
    assert_eq!(t.get(BUF, 2), b"/\0");
    let p = t.cstr(BUF + 0x100, "/tmp/../tmp/./");
    assert_eq!(t.call(nr::CHDIR, &[p]), 0);
    assert_eq!(t.call(nr::GETCWD, &[BUF, 100]), 5);
    assert_eq!(t.get(BUF, 5), b"/tmp\0");
    assert_eq!(t.open("rel", RW_CREAT, 0o644), 3);
    assert!(stat(&mut t, "/tmp/rel", 0).is_ok());
}

#[test]
fn getcwd_errors() {
    let mut t = T::new();
    assert_eq!(t.call(nr::GETCWD, &[BUF, 1]), ERANGE.ret());
    assert_eq!(t.call(nr::GETCWD, &[BAD, 100]), EFAULT.ret());
}

#[test]
fn chdir_errors() {
    let mut t = T::new();
    t.open("/tmp/f", RW_CREAT, 0o644);
    let p = t.cstr(BUF + 0x100, "/tmp/f");
    assert_eq!(t.call(nr::CHDIR, &[p]), ENOTDIR.ret());
    let p = t.cstr(BUF + 0x100, "/none");
    assert_eq!(t.call(nr::CHDIR, &[p]), ENOENT.ret());
    assert_eq!(t.call(nr::CHDIR, &[BAD]), EFAULT.ret());
}

#[test]
fn fchdir_to_a_directory_fd() {
    let mut t = T::new();
    let fd = t.open("/tmp", O_DIRECTORY, 0) as u64;
    assert_eq!(t.call(nr::FCHDIR, &[fd]), 0);
    assert_eq!(t.k.proc(t.pid).cwd, "/tmp");
}

#[test]
fn fchdir_errors() {
    let mut t = T::new();
    assert_eq!(t.call(nr::FCHDIR, &[AT_FDCWD as u64]), EBADF.ret());
    assert_eq!(t.call(nr::FCHDIR, &[50]), EBADF.ret());
    let fd = t.open("/tmp/f", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::FCHDIR, &[fd]), ENOTDIR.ret());
}

#[test]
fn dirfd_relative_open() {
    let mut t = T::new();
    let d = t.open("/tmp", O_DIRECTORY, 0) as u64;
    let p = t.cstr(BUF + 0x100, "inner");
    assert_eq!(t.call(nr::OPENAT, &[d, p, RW_CREAT, 0o644]), 4);
    assert!(stat(&mut t, "/tmp/inner", 0).is_ok());
    let f = t.open("/tmp/inner", 0, 0) as u64;
    assert_eq!(
        t.call(nr::OPENAT, &[f, p, 0, 0]),
        ENOTDIR.ret(),
        "dirfd is a file"
    );
    assert_eq!(
        t.call(nr::OPENAT, &[90, p, 0, 0]),
        EBADF.ret(),
        "dirfd is closed"
    );
}

#[test]
fn faccessat_checks_existence() {
    let mut t = T::new();
    assert_eq!(at(&mut t, nr::FACCESSAT, "/tmp", &[0]), 0);
    assert_eq!(at(&mut t, nr::FACCESSAT, "/none", &[0]), ENOENT.ret());
}

fn dirents(b: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let reclen = u16::from_le_bytes([b[i + 16], b[i + 17]]) as usize;
        let name = &b[i + 19..i + reclen];
        let end = name.iter().position(|&c| c == 0).unwrap();
        names.push(String::from_utf8_lossy(&name[..end]).into_owned());
        i += reclen;
    }
    names
}

#[test]
fn getdents_lists_a_directory_in_pieces() {
    let mut t = T::new();
    at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]);
    for n in ["a", "b", "c"] {
        t.open(&format!("/tmp/d/{n}"), RW_CREAT, 0o644);
    }
    let fd = t.open("/tmp/d", O_DIRECTORY, 0) as u64;
    let n = t.call(nr::GETDENTS64, &[fd, BUF, 56]);
    assert_eq!(n, 48, "two 24-byte records fit");
    let first = dirents(&t.get(BUF, n as usize));
    let n = t.call(nr::GETDENTS64, &[fd, BUF, 4096]);
    let rest = dirents(&t.get(BUF, n as usize));
    assert_eq!(first, [".", ".."]);
    assert_eq!(rest, ["a", "b", "c"]);
    assert_eq!(
        t.call(nr::GETDENTS64, &[fd, BUF, 4096]),
        0,
        "end of directory"
    );
}

#[test]
fn getdents_errors() {
    let mut t = T::new();
    let fd = t.open("/tmp", O_DIRECTORY, 0) as u64;
    assert_eq!(
        t.call(nr::GETDENTS64, &[fd, BUF, 10]),
        EINVAL.ret(),
        "buffer too small"
    );
    let f = t.open("/tmp/f", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::GETDENTS64, &[f, BUF, 4096]), ENOTDIR.ret());
    assert_eq!(t.call(nr::GETDENTS64, &[77, BUF, 4096]), EBADF.ret());
}

#[test]
fn getdents_into_a_bad_buffer_is_efault_and_keeps_the_position() {
    let mut t = T::new();
    let fd = t.open("/tmp", O_DIRECTORY, 0) as u64;
    assert_eq!(t.call(nr::GETDENTS64, &[fd, BAD, 4096]), EFAULT.ret());
    let n = t.call(nr::GETDENTS64, &[fd, BUF, 4096]);
    assert_eq!(dirents(&t.get(BUF, n as usize))[0], ".");
}

#[test]
fn utimensat_needs_an_existing_path() {
    let mut t = T::new();
    assert_eq!(at(&mut t, nr::UTIMENSAT, "/tmp", &[0, 0]), 0);
    assert_eq!(at(&mut t, nr::UTIMENSAT, "/none", &[0, 0]), ENOENT.ret());
}
