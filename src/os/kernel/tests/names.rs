//! Names over time: mounts, unlinked files and their memory, rename rules, inode reuse.

use super::fs::{at, rename, stat};
use super::*;

const RW_CREAT: u64 = O_RDWR | O_CREAT;

/// A fresh host directory mounted at /mnt (read-only if `ro`), removed when dropped.
struct Mounted {
    t: T,
    dir: std::path::PathBuf,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn mounted(name: &str, ro: bool) -> Mounted {
    let dir = std::env::temp_dir().join(format!("garm-kt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("old"), b"there").unwrap();
    let mut t = T::new();
    t.k.vfs.mount(&dir, "/mnt", ro).unwrap();
    Mounted { t, dir }
}

#[test]
fn new_names_in_a_writable_mount_are_created() {
    // Regression: a missing last component inside a mount resolved, so these said EEXIST.
    let mut m = mounted("rw", false);
    let t = &mut m.t;
    assert_eq!(at(t, nr::MKDIRAT, "/mnt/d", &[0o755]), 0);
    assert!(m.dir.join("d").is_dir());
    let target = t.cstr(BUF + 0x100, "old");
    let link = t.cstr(BUF + 0x200, "/mnt/ln");
    assert_eq!(t.call(nr::SYMLINKAT, &[target, AT_FDCWD as u64, link]), 0);
    assert!(t.open("/mnt/new", RW_CREAT | O_EXCL, 0o644) >= 3);
    assert!(m.dir.join("new").is_file());
    assert_eq!(t.open("/mnt/new", RW_CREAT | O_EXCL, 0o644), EEXIST.ret());
    assert_eq!(at(t, nr::MKDIRAT, "/mnt/d", &[0o755]), EEXIST.ret());
    assert_eq!(stat(t, "/mnt/none", 0), Err(ENOENT));
    assert_eq!(t.open("/mnt/none", 0, 0), ENOENT.ret());
}

#[test]
fn new_names_in_a_read_only_mount_are_erofs() {
    let mut m = mounted("ro", true);
    let t = &mut m.t;
    assert_eq!(at(t, nr::MKDIRAT, "/mnt/d", &[0o755]), EROFS.ret());
    let target = t.cstr(BUF + 0x100, "old");
    let link = t.cstr(BUF + 0x200, "/mnt/ln");
    assert_eq!(
        t.call(nr::SYMLINKAT, &[target, AT_FDCWD as u64, link]),
        EROFS.ret()
    );
    assert_eq!(t.open("/mnt/new", RW_CREAT | O_EXCL, 0o644), EROFS.ret());
    assert_eq!(t.open("/mnt/old", O_RDWR, 0), EROFS.ret());
    assert_eq!(at(t, nr::UNLINKAT, "/mnt/old", &[0]), EROFS.ret());
    let fd = t.open("/mnt/old", 0, 0);
    assert_eq!(t.read_fd(fd, 10).unwrap(), b"there");
    assert!(!m.dir.join("d").exists() && !m.dir.join("new").exists());
}

#[test]
fn an_unlinked_open_file_keeps_its_data_until_the_last_close() {
    let mut t = T::new();
    let base = t.k.vfs.used;
    let fd = t.open("/tmp/big", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::FTRUNCATE, &[fd, 1 << 20]), 0);
    assert_eq!(t.k.vfs.used, base + (1 << 20));
    let dup = t.call(nr::DUP, &[fd]) as u64;
    assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/big", &[0]), 0);
    assert_eq!(t.k.vfs.used, base + (1 << 20), "still open");
    t.call(nr::CLOSE, &[fd]);
    assert_eq!(t.k.vfs.used, base + (1 << 20), "the dup still refers to it");
    t.call(nr::CLOSE, &[dup]);
    assert_eq!(t.k.vfs.used, base, "freed with the last description");
}

#[test]
fn files_beyond_the_filesystem_budget_are_enospc() {
    let mut t = T::new();
    t.k.vfs.limit = t.k.vfs.used + 10_000;
    let fd = t.open("/tmp/f", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::FTRUNCATE, &[fd, 9_000]), 0);
    assert_eq!(t.call(nr::FTRUNCATE, &[fd, 20_000]), ENOSPC.ret());
    t.put(BUF, &[1; 16]);
    assert_eq!(t.call(nr::PWRITE64, &[fd, BUF, 16, 12_000]), ENOSPC.ret());
    assert_eq!(
        t.call(nr::FTRUNCATE, &[fd, 0]),
        0,
        "shrinking gives room back"
    );
    assert_eq!(t.call(nr::PWRITE64, &[fd, BUF, 16, 9_000]), 16);
}

#[test]
fn rename_over_a_file_frees_the_old_one_and_follows_linux_rules() {
    let mut t = T::new();
    let base = t.k.vfs.used;
    let a = t.open("/tmp/a", RW_CREAT, 0o644);
    t.write_fd(a, &[7; 1000]);
    let b = t.open("/tmp/b", RW_CREAT, 0o644);
    t.write_fd(b, &[8; 500]);
    t.call(nr::CLOSE, &[a as u64]);
    t.call(nr::CLOSE, &[b as u64]);
    assert_eq!(rename(&mut t, nr::RENAMEAT, "/tmp/a", "/tmp/b", 0), 0);
    assert_eq!(
        t.k.vfs.used,
        base + 1000,
        "the replaced file's 500 bytes are gone"
    );
    at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]);
    at(&mut t, nr::MKDIRAT, "/tmp/e", &[0o755]);
    t.open("/tmp/e/x", RW_CREAT, 0o644);
    assert_eq!(
        rename(&mut t, nr::RENAMEAT, "/tmp/b", "/tmp/d", 0),
        EISDIR.ret()
    );
    assert_eq!(
        rename(&mut t, nr::RENAMEAT, "/tmp/d", "/tmp/b", 0),
        ENOTDIR.ret()
    );
    assert_eq!(
        rename(&mut t, nr::RENAMEAT, "/tmp/d", "/tmp/e", 0),
        ENOTEMPTY.ret()
    );
    assert_eq!(
        rename(&mut t, nr::RENAMEAT, "/tmp/e", "/tmp/d", 0),
        0,
        "over an empty dir"
    );
    assert_eq!(stat(&mut t, "/tmp/d/x", 0).map(|s| s.size), Ok(0));
}

#[test]
fn rename_between_two_names_of_one_file_does_nothing() {
    let mut t = T::new();
    t.open("/tmp/a", RW_CREAT, 0o644);
    assert_eq!(rename(&mut t, nr::LINKAT, "/tmp/a", "/tmp/b", 0), 0);
    assert_eq!(rename(&mut t, nr::RENAMEAT, "/tmp/a", "/tmp/b", 0), 0);
    assert!(stat(&mut t, "/tmp/a", 0).is_ok() && stat(&mut t, "/tmp/b", 0).is_ok());
    assert_eq!(
        rename(&mut t, nr::RENAMEAT2, "/tmp/a", "/tmp/b", 1),
        EEXIST.ret()
    );
    assert_eq!(
        rename(&mut t, nr::RENAMEAT2, "/tmp/a", "/tmp/c", 2),
        EINVAL.ret(),
        "EXCHANGE"
    );
}

#[test]
fn a_mount_point_cannot_be_removed_or_moved() {
    let mut m = mounted("busy", false);
    let t = &mut m.t;
    assert_eq!(at(t, nr::UNLINKAT, "/mnt", &[AT_REMOVEDIR]), EBUSY.ret());
    assert_eq!(
        rename(t, nr::RENAMEAT, "/mnt", "/tmp/elsewhere", 0),
        EBUSY.ret()
    );
}

#[test]
fn creating_and_removing_names_forever_keeps_the_inode_table_bounded() {
    let mut t = T::new();
    let before = t.k.vfs.inodes.len();
    for i in 0..3000 {
        let fd = t.open("/tmp/x", RW_CREAT, 0o644) as u64;
        t.call(nr::CLOSE, &[fd]);
        assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/x", &[0]), 0, "round {i}");
        assert_eq!(at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]), 0);
        assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/d", &[AT_REMOVEDIR]), 0);
    }
    assert!(
        t.k.vfs.inodes.len() <= before + 2,
        "{} inodes",
        t.k.vfs.inodes.len()
    );
}

#[test]
fn an_open_directory_or_file_is_not_reused_while_open() {
    let mut t = T::new();
    at(&mut t, nr::MKDIRAT, "/tmp/d", &[0o755]);
    let d = t.open("/tmp/d", O_DIRECTORY, 0) as u64;
    let f = t.open("/tmp/f", RW_CREAT, 0o644);
    t.write_fd(f, b"still here");
    assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/d", &[AT_REMOVEDIR]), 0);
    assert_eq!(at(&mut t, nr::UNLINKAT, "/tmp/f", &[0]), 0);
    // New names must not take the numbers still open.
    for n in 0..4 {
        t.open(&format!("/tmp/n{n}"), RW_CREAT, 0o644);
    }
    assert_eq!(t.call(nr::GETDENTS64, &[d, BUF, 4096]), 48, "just . and ..");
    t.call(nr::LSEEK, &[f as u64, 0, 0]);
    assert_eq!(t.read_fd(f, 20).unwrap(), b"still here");
}
