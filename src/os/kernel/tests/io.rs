//! read/write and friends, pipes, dup, fcntl, lseek, ftruncate, close.

use super::*;

const RW_CREAT: u64 = O_RDWR | O_CREAT;

#[test]
fn write_then_read_back_a_tmp_file() {
    let mut t = T::new();
    let fd = t.open("/tmp/a", RW_CREAT, 0o644);
    assert_eq!(fd, 3);
    assert_eq!(t.write_fd(fd, b"hello"), 5);
    assert_eq!(t.call(nr::LSEEK, &[fd as u64, 0, 0]), 0);
    assert_eq!(t.read_fd(fd, 100).unwrap(), b"hello");
    assert_eq!(t.read_fd(fd, 100).unwrap(), b"", "EOF reads 0");
}

#[test]
fn read_of_a_bad_fd_is_ebadf() {
    let mut t = T::new();
    assert_eq!(t.read_fd(7, 4), Err(EBADF));
    assert_eq!(t.read_fd(-1, 4), Err(EBADF));
    assert_eq!(t.read_fd(100_000, 4), Err(EBADF));
}

#[test]
fn write_to_a_bad_fd_is_ebadf() {
    let mut t = T::new();
    assert_eq!(t.write_fd(9, b"x"), EBADF.ret());
}

#[test]
fn write_from_a_bad_buffer_is_efault() {
    let mut t = T::new();
    let fd = t.open("/tmp/a", RW_CREAT, 0o644);
    assert_eq!(t.call(nr::WRITE, &[fd as u64, BAD, 4]), EFAULT.ret());
    assert_eq!(
        t.call(nr::WRITE, &[fd as u64, (MEM - 2) as u64, 4]),
        EFAULT.ret()
    );
}

#[test]
fn read_into_a_bad_buffer_is_efault() {
    let mut t = T::new();
    let fd = t.open("/tmp/a", RW_CREAT, 0o644);
    t.write_fd(fd, b"abc");
    t.call(nr::LSEEK, &[fd as u64, 0, 0]);
    assert_eq!(t.call(nr::READ, &[fd as u64, BAD, 3]), EFAULT.ret());
}

#[test]
fn zero_length_read_and_write_return_zero() {
    let mut t = T::new();
    let fd = t.open("/tmp/a", RW_CREAT, 0o644);
    assert_eq!(t.call(nr::WRITE, &[fd as u64, BUF, 0]), 0);
    assert_eq!(t.call(nr::READ, &[fd as u64, BUF, 0]), 0);
}

#[test]
fn read_on_write_only_fd_is_ebadf() {
    let mut t = T::new();
    let fd = t.open("/tmp/w", O_WRONLY | O_CREAT, 0o644);
    assert_eq!(t.read_fd(fd, 4), Err(EBADF));
}

#[test]
fn write_on_read_only_fd_is_ebadf() {
    let mut t = T::new();
    let fd = t.open("/tmp/r", O_CREAT, 0o644);
    assert_eq!(t.write_fd(fd, b"x"), EBADF.ret());
}

#[test]
fn read_of_a_directory_is_eisdir() {
    let mut t = T::new();
    let fd = t.open("/tmp", O_DIRECTORY, 0);
    assert!(fd >= 3);
    assert_eq!(t.read_fd(fd, 4), Err(EISDIR));
}

#[test]
fn pread_and_pwrite_leave_the_offset_alone() {
    let mut t = T::new();
    let fd = t.open("/tmp/p", RW_CREAT, 0o644) as u64;
    t.write_fd(fd as i64, b"0123456789");
    t.put(BUF, b"AB");
    assert_eq!(t.call(nr::PWRITE64, &[fd, BUF, 2, 3]), 2);
    assert_eq!(t.call(nr::PREAD64, &[fd, BUF, 4, 2]), 4);
    assert_eq!(t.get(BUF, 4), b"2AB5");
    assert_eq!(
        t.call(nr::LSEEK, &[fd, 0, 1]),
        10,
        "offset unchanged by pread/pwrite"
    );
}

#[test]
fn pwrite_past_the_end_fills_a_hole_with_zeros() {
    let mut t = T::new();
    let fd = t.open("/tmp/h", RW_CREAT, 0o644) as u64;
    t.put(BUF, b"Z");
    assert_eq!(t.call(nr::PWRITE64, &[fd, BUF, 1, 4]), 1);
    assert_eq!(t.call(nr::PREAD64, &[fd, BUF, 10, 0]), 5);
    assert_eq!(t.get(BUF, 5), b"\0\0\0\0Z");
}

#[test]
fn append_mode_writes_at_the_end() {
    let mut t = T::new();
    let fd = t.open("/tmp/ap", RW_CREAT, 0o644);
    t.write_fd(fd, b"abc");
    let fd2 = t.open("/tmp/ap", O_WRONLY | O_APPEND, 0);
    t.write_fd(fd2, b"de");
    t.call(nr::LSEEK, &[fd as u64, 0, 0]);
    assert_eq!(t.read_fd(fd, 10).unwrap(), b"abcde");
}

#[test]
fn writev_gathers_in_order() {
    let mut t = T::new();
    let fd = t.open("/tmp/v", RW_CREAT, 0o644) as u64;
    t.put(BUF, b"hello ");
    t.put(BUF + 0x100, b"world");
    let iov = [
        Iovec { base: BUF, len: 6 },
        Iovec { base: 0, len: 0 },
        Iovec {
            base: BUF + 0x100,
            len: 5,
        },
    ];
    t.put(BUF + 0x800, bytemuck::cast_slice(&iov));
    assert_eq!(t.call(nr::WRITEV, &[fd, BUF + 0x800, 3]), 11);
    t.call(nr::LSEEK, &[fd, 0, 0]);
    assert_eq!(t.read_fd(fd as i64, 20).unwrap(), b"hello world");
}

#[test]
fn readv_scatters_and_stops_short() {
    let mut t = T::new();
    let fd = t.open("/tmp/v", RW_CREAT, 0o644) as u64;
    t.write_fd(fd as i64, b"abcdefg");
    t.call(nr::LSEEK, &[fd, 0, 0]);
    let iov = [
        Iovec { base: BUF, len: 3 },
        Iovec {
            base: BUF + 0x100,
            len: 10,
        },
    ];
    t.put(BUF + 0x800, bytemuck::cast_slice(&iov));
    assert_eq!(t.call(nr::READV, &[fd, BUF + 0x800, 2]), 7);
    assert_eq!(t.get(BUF, 3), b"abc");
    assert_eq!(t.get(BUF + 0x100, 4), b"defg");
}

#[test]
fn readv_with_too_many_entries_is_einval() {
    let mut t = T::new();
    let fd = t.open("/tmp/v", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::READV, &[fd, BUF, 1025]), EINVAL.ret());
    assert_eq!(t.call(nr::WRITEV, &[fd, BUF, 1025]), EINVAL.ret());
}

#[test]
fn writev_with_a_bad_iovec_array_is_efault() {
    let mut t = T::new();
    let fd = t.open("/tmp/v", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::WRITEV, &[fd, BAD, 2]), EFAULT.ret());
}

#[test]
fn writev_error_after_some_bytes_reports_the_bytes() {
    let mut t = T::new();
    let fd = t.open("/tmp/v", RW_CREAT, 0o644) as u64;
    t.put(BUF, b"ok");
    let iov = [Iovec { base: BUF, len: 2 }, Iovec { base: BAD, len: 5 }];
    t.put(BUF + 0x800, bytemuck::cast_slice(&iov));
    assert_eq!(t.call(nr::WRITEV, &[fd, BUF + 0x800, 2]), 2);
}

#[test]
fn lseek_whence_and_errors() {
    let mut t = T::new();
    let fd = t.open("/tmp/s", RW_CREAT, 0o644) as u64;
    t.write_fd(fd as i64, b"0123456789");
    assert_eq!(t.call(nr::LSEEK, &[fd, 4, 0]), 4);
    assert_eq!(t.call(nr::LSEEK, &[fd, 2, 1]), 6);
    assert_eq!(t.call(nr::LSEEK, &[fd, (-3i64) as u64, 2]), 7);
    assert_eq!(t.call(nr::LSEEK, &[fd, (-100i64) as u64, 0]), EINVAL.ret());
    assert_eq!(t.call(nr::LSEEK, &[fd, 0, 9]), EINVAL.ret());
    assert_eq!(
        t.call(nr::LSEEK, &[fd, 100, 0]),
        100,
        "past the end is allowed"
    );
}

#[test]
fn lseek_on_a_pipe_is_espipe() {
    let mut t = T::new();
    assert_eq!(t.call(nr::PIPE2, &[BUF, 0]), 0);
    let [r, _w]: [i32; 2] = t.get_obj(BUF);
    assert_eq!(t.call(nr::LSEEK, &[r as u64, 0, 0]), ESPIPE.ret());
}

#[test]
fn lseek_on_the_console_is_espipe() {
    let mut t = T::new();
    assert_eq!(t.call(nr::LSEEK, &[1, 0, 0]), ESPIPE.ret());
}

#[test]
fn close_twice_is_ebadf() {
    let mut t = T::new();
    let fd = t.open("/tmp/c", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::CLOSE, &[fd]), 0);
    assert_eq!(t.call(nr::CLOSE, &[fd]), EBADF.ret());
    assert_eq!(t.call(nr::CLOSE, &[(-1i64) as u64]), EBADF.ret());
}

#[test]
fn lowest_free_fd_is_reused() {
    let mut t = T::new();
    let a = t.open("/tmp/a", RW_CREAT, 0o644);
    let b = t.open("/tmp/b", RW_CREAT, 0o644);
    assert_eq!((a, b), (3, 4));
    t.call(nr::CLOSE, &[3]);
    assert_eq!(t.open("/tmp/c", RW_CREAT, 0o644), 3);
}

#[test]
fn dup_shares_the_offset() {
    let mut t = T::new();
    let fd = t.open("/tmp/d", RW_CREAT, 0o644);
    let d = t.call(nr::DUP, &[fd as u64]);
    assert_eq!(d, 4);
    t.write_fd(fd, b"abc");
    assert_eq!(t.call(nr::LSEEK, &[d as u64, 0, 1]), 3);
}

#[test]
fn dup_of_a_bad_fd_is_ebadf() {
    let mut t = T::new();
    assert_eq!(t.call(nr::DUP, &[42]), EBADF.ret());
}

#[test]
fn dup3_rules() {
    let mut t = T::new();
    let fd = t.open("/tmp/d", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::DUP3, &[fd, fd, 0]), EINVAL.ret(), "same fd");
    assert_eq!(t.call(nr::DUP3, &[fd, 10, 0xff]), EINVAL.ret(), "bad flags");
    assert_eq!(
        t.call(nr::DUP3, &[fd, 5000, 0]),
        EBADF.ret(),
        "past the limit"
    );
    assert_eq!(t.call(nr::DUP3, &[77, 10, 0]), EBADF.ret(), "bad old fd");
    assert_eq!(t.call(nr::DUP3, &[fd, 10, O_CLOEXEC]), 10);
    assert_eq!(t.call(nr::FCNTL, &[10, F_GETFD, 0]), 1);
}

#[test]
fn dup3_over_an_open_fd_replaces_it() {
    let mut t = T::new();
    let a = t.open("/tmp/a", RW_CREAT, 0o644) as u64;
    let b = t.open("/tmp/b", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::DUP3, &[a, b, 0]), b as i64);
    t.write_fd(b as i64, b"to-a");
    assert_eq!(t.call(nr::LSEEK, &[a, 0, 1]), 4);
}

#[test]
fn fcntl_dupfd_takes_the_lowest_at_or_above() {
    let mut t = T::new();
    let fd = t.open("/tmp/f", RW_CREAT, 0o644) as u64;
    assert_eq!(t.call(nr::FCNTL, &[fd, F_DUPFD, 20]), 20);
    assert_eq!(t.call(nr::FCNTL, &[fd, F_DUPFD, 20]), 21);
    assert_eq!(t.call(nr::FCNTL, &[fd, F_DUPFD_CLOEXEC, 0]), 4);
    assert_eq!(t.call(nr::FCNTL, &[4, F_GETFD, 0]), 1);
    assert_eq!(t.call(nr::FCNTL, &[fd, F_DUPFD, 1024]), EINVAL.ret());
}

#[test]
fn open_flags_past_the_int_are_dropped() {
    // Found by `garm hostfuzz`: openat kept bit 63 of its flags, so F_GETFL returned i64::MIN,
    // which is not an errno and not a flag word.
    let mut t = T::new();
    let fd = t.open("/tmp/f", RW_CREAT | 1 << 63 | 1 << 40 | 1 << 30, 0o644) as u64;
    let fl = t.call(nr::FCNTL, &[fd, F_GETFL, 0]);
    assert!(fl >= 0, "{fl:#x}");
    assert_eq!(fl as u64 & !0x7f_ffff, 0, "{fl:#x}");
    assert_eq!(fl as u64 & O_ACCMODE, O_RDWR);
}

#[test]
fn fcntl_flags_round_trip() {
    let mut t = T::new();
    let fd = t.open("/tmp/f", RW_CREAT | O_CLOEXEC, 0o644) as u64;
    assert_eq!(t.call(nr::FCNTL, &[fd, F_GETFD, 0]), 1);
    assert_eq!(t.call(nr::FCNTL, &[fd, F_SETFD, 0]), 0);
    assert_eq!(t.call(nr::FCNTL, &[fd, F_GETFD, 0]), 0);
    let fl = t.call(nr::FCNTL, &[fd, F_GETFL, 0]) as u64;
    assert_eq!(fl & O_ACCMODE, O_RDWR);
    assert_eq!(
        fl & O_CLOEXEC,
        0,
        "O_CLOEXEC is an fd flag, not a status flag"
    );
    assert_eq!(
        t.call(nr::FCNTL, &[fd, F_SETFL, O_APPEND | O_NONBLOCK | O_WRONLY]),
        0
    );
    let fl = t.call(nr::FCNTL, &[fd, F_GETFL, 0]) as u64;
    assert_eq!(
        fl & (O_APPEND | O_NONBLOCK | O_ACCMODE),
        O_APPEND | O_NONBLOCK | O_RDWR
    );
}

#[test]
fn fcntl_unknown_command_is_einval_and_bad_fd_ebadf() {
    let mut t = T::new();
    assert_eq!(t.call(nr::FCNTL, &[1, 9999, 0]), EINVAL.ret());
    assert_eq!(t.call(nr::FCNTL, &[55, F_GETFD, 0]), EBADF.ret());
}

#[test]
fn ioctl_is_enotty_on_files_and_ebadf_on_nothing() {
    let mut t = T::new();
    assert_eq!(t.call(nr::IOCTL, &[1, 0x5401, BUF]), ENOTTY.ret());
    assert_eq!(t.call(nr::IOCTL, &[40, 0x5401, BUF]), EBADF.ret());
}

#[test]
fn pipe_round_trip() {
    let mut t = T::new();
    assert_eq!(t.call(nr::PIPE2, &[BUF, 0]), 0);
    let [r, w]: [i32; 2] = t.get_obj(BUF);
    assert_eq!((r, w), (3, 4));
    assert_eq!(t.write_fd(w as i64, b"ping"), 4);
    assert_eq!(t.read_fd(r as i64, 2).unwrap(), b"pi");
    assert_eq!(t.read_fd(r as i64, 10).unwrap(), b"ng");
}

#[test]
fn empty_pipe_read_blocks_and_nonblock_is_eagain() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    assert_eq!(t.sys(nr::READ, &[3, BUF2, 4]), Sys::Block);
    t.call(nr::PIPE2, &[BUF, O_NONBLOCK]);
    let [r, _]: [i32; 2] = t.get_obj(BUF);
    assert_eq!(t.read_fd(r as i64, 4), Err(EAGAIN));
}

#[test]
fn pipe_read_after_writers_close_is_eof() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    t.write_fd(4, b"last");
    t.call(nr::CLOSE, &[4]);
    assert_eq!(t.read_fd(3, 10).unwrap(), b"last");
    assert_eq!(t.read_fd(3, 10).unwrap(), b"");
}

#[test]
fn pipe_write_with_no_reader_kills_with_sigpipe() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    t.call(nr::CLOSE, &[3]);
    t.put(BUF2, b"x");
    assert_eq!(t.sys(nr::WRITE, &[4, BUF2, 1]), Sys::NoReturn);
    assert_eq!(t.k.proc(t.pid).state, PState::Zombie(sig::SIGPIPE));
}

#[test]
fn pipe_write_with_no_reader_and_sigpipe_ignored_is_epipe() {
    let mut t = T::new();
    let act = Sigaction {
        handler: SIG_IGN,
        ..Default::default()
    };
    t.put(BUF + 0x400, bytemuck::bytes_of(&act));
    assert_eq!(
        t.call(nr::RT_SIGACTION, &[sig::SIGPIPE as u64, BUF + 0x400, 0, 8]),
        0
    );
    t.call(nr::PIPE2, &[BUF, 0]);
    t.call(nr::CLOSE, &[3]);
    assert_eq!(t.write_fd(4, b"x"), EPIPE.ret());
}

#[test]
fn full_pipe_blocks_writers_and_takes_a_partial_write() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    let big = vec![7u8; PIPE_CAP - 10];
    t.put(BUF2, &big);
    assert_eq!(
        t.call(nr::WRITE, &[4, BUF2, big.len() as u64]),
        big.len() as i64
    );
    // Up to PIPE_BUF bytes go in whole (POSIX): 100 bytes wait for room for all of them.
    assert_eq!(t.sys(nr::WRITE, &[4, BUF2, 100]), Sys::Block);
    assert_eq!(t.call(nr::WRITE, &[4, BUF2, 10]), 10, "what fits goes");
    assert_eq!(t.sys(nr::WRITE, &[4, BUF2, 1]), Sys::Block);
    assert_eq!(t.call(nr::FCNTL, &[4, F_SETFL, O_NONBLOCK]), 0);
    assert_eq!(t.call(nr::WRITE, &[4, BUF2, 1]), EAGAIN.ret());
    t.read_fd(3, 100).unwrap();
    assert_eq!(
        t.call(nr::WRITE, &[4, BUF2, 101]),
        EAGAIN.ret(),
        "not all of it fits"
    );
    assert_eq!(
        t.call(nr::WRITE, &[4, BUF2, PIPE_BUF as u64 + 1]),
        100,
        "a larger write takes the room left"
    );
}

#[test]
fn pipe2_rejects_unknown_flags() {
    let mut t = T::new();
    assert_eq!(t.call(nr::PIPE2, &[BUF, 0x1]), EINVAL.ret());
}

#[test]
fn pipe2_into_a_bad_pointer_is_efault_and_leaks_no_fd() {
    let mut t = T::new();
    assert_eq!(t.call(nr::PIPE2, &[BAD, 0]), EFAULT.ret());
    assert_eq!(t.open("/tmp/x", RW_CREAT, 0o644), 3);
}

#[test]
fn pipe2_with_one_fd_left_is_emfile_and_leaves_none_open() {
    let mut t = T::new();
    for i in 3..MAX_FDS - 1 {
        assert_eq!(t.call(nr::DUP3, &[0, i as u64, 0]), i as i64);
    }
    assert_eq!(t.call(nr::PIPE2, &[BUF, 0]), EMFILE.ret());
    assert_eq!(
        t.call(nr::DUP, &[0]),
        (MAX_FDS - 1) as i64,
        "the last slot is still free"
    );
}

#[test]
fn open_past_the_fd_limit_is_emfile() {
    let mut t = T::new();
    for i in 3..MAX_FDS {
        t.call(nr::DUP3, &[0, i as u64, 0]);
    }
    assert_eq!(t.open("/tmp/x", RW_CREAT, 0o644), EMFILE.ret());
    assert_eq!(t.call(nr::DUP, &[0]), EMFILE.ret());
}

#[test]
fn ftruncate_grows_and_shrinks() {
    let mut t = T::new();
    let fd = t.open("/tmp/t", RW_CREAT, 0o644) as u64;
    t.write_fd(fd as i64, b"abcdef");
    assert_eq!(t.call(nr::FTRUNCATE, &[fd, 2]), 0);
    assert_eq!(t.call(nr::PREAD64, &[fd, BUF, 10, 0]), 2);
    assert_eq!(t.call(nr::FTRUNCATE, &[fd, 5]), 0);
    assert_eq!(t.call(nr::PREAD64, &[fd, BUF, 10, 0]), 5);
    assert_eq!(t.get(BUF, 5), b"ab\0\0\0");
}

#[test]
fn ftruncate_errors() {
    let mut t = T::new();
    let fd = t.open("/tmp/t", RW_CREAT, 0o644) as u64;
    assert_eq!(
        t.call(nr::FTRUNCATE, &[fd, u64::MAX]),
        EINVAL.ret(),
        "negative length"
    );
    assert_eq!(t.call(nr::FTRUNCATE, &[fd, MAX_FILE + 1]), EFBIG.ret());
    let ro = t.open("/tmp/t", 0, 0) as u64;
    assert_eq!(
        t.call(nr::FTRUNCATE, &[ro, 0]),
        EINVAL.ret(),
        "not open for writing"
    );
    assert_eq!(t.call(nr::FTRUNCATE, &[99, 0]), EBADF.ret());
    assert_eq!(t.call(nr::FTRUNCATE, &[1, 0]), EINVAL.ret(), "the console");
}

#[test]
fn write_past_the_file_cap_is_efbig() {
    let mut t = T::new();
    let fd = t.open("/tmp/big", RW_CREAT, 0o644) as u64;
    t.put(BUF, b"x");
    assert_eq!(t.call(nr::PWRITE64, &[fd, BUF, 1, MAX_FILE]), EFBIG.ret());
}

#[test]
fn console_writes_reach_the_output_of_the_instance() {
    let mut t = T::new();
    assert_eq!(t.write_fd(1, b"out"), 3);
    assert_eq!(t.write_fd(2, b"err"), 3);
    assert_eq!(t.out.bytes(0, 1), b"out");
    assert_eq!(t.out.bytes(0, 2), b"err");
}

#[test]
fn dev_null_and_dev_zero() {
    let mut t = T::new();
    let null = t.open("/dev/null", O_RDWR, 0);
    assert_eq!(t.write_fd(null, b"gone"), 4);
    assert_eq!(t.read_fd(null, 10).unwrap(), b"");
    let zero = t.open("/dev/zero", 0, 0);
    t.put(BUF2, &[9; 8]);
    assert_eq!(t.read_fd(zero, 8).unwrap(), [0; 8]);
}

#[test]
fn urandom_fills_the_buffer() {
    let mut t = T::new();
    let fd = t.open("/dev/urandom", 0, 0);
    let b = t.read_fd(fd, 64).unwrap();
    assert_eq!(b.len(), 64);
    assert!(b.iter().any(|&x| x != 0));
}

#[test]
fn stdin_is_read_only() {
    let mut t = T::new();
    t.k.stdin = crate::os::Stdin::fixed(1, b"input".to_vec());
    assert_eq!(t.read_fd(0, 3).unwrap(), b"inp");
    assert_eq!(t.read_fd(0, 9).unwrap(), b"ut");
    assert_eq!(t.read_fd(1, 3), Err(EBADF), "stdout is not readable");
}

#[test]
fn closed_pipes_give_their_buffer_back_and_their_number_is_reused() {
    let mut t = T::new();
    for _ in 0..50 {
        assert_eq!(t.call(nr::PIPE2, &[BUF, 0]), 0);
        t.write_fd(4, &[1; 1000]);
        t.call(nr::CLOSE, &[3]);
        t.call(nr::CLOSE, &[4]);
    }
    assert_eq!(t.k.pipes.len(), 1, "one pipe number, reused");
    assert_eq!(t.k.pipes[0].buf.capacity(), 0, "its buffer freed");
}

#[test]
fn a_read_into_a_bad_buffer_consumes_nothing() {
    // Regression: the data was taken from the pipe, file or stdin, then EFAULT returned.
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    t.write_fd(4, b"kept");
    assert_eq!(t.call(nr::READ, &[3, BAD, 4]), EFAULT.ret());
    assert_eq!(t.read_fd(3, 10).unwrap(), b"kept");
    let fd = t.open("/tmp/f", RW_CREAT, 0o644);
    t.write_fd(fd, b"abc");
    t.call(nr::LSEEK, &[fd as u64, 0, 0]);
    assert_eq!(t.call(nr::READ, &[fd as u64, BAD, 3]), EFAULT.ret());
    assert_eq!(t.call(nr::LSEEK, &[fd as u64, 0, 1]), 0, "offset unmoved");
    t.k.stdin = crate::os::Stdin::fixed(1, b"in".to_vec());
    assert_eq!(t.call(nr::READ, &[0, BAD, 2]), EFAULT.ret());
    assert_eq!(t.read_fd(0, 2).unwrap(), b"in");
}

#[test]
fn the_kernel_faults_on_unmapped_pages_too() {
    let mut t = T::new();
    t.g.unmap(0, 0xb0000, 0x10000).unwrap();
    let fd = t.open("/dev/zero", 0, 0) as u64;
    assert_eq!(t.call(nr::READ, &[fd, 0xb8000, 16]), EFAULT.ret());
    assert_eq!(
        t.call(nr::READ, &[fd, 0xafff8, 16]),
        EFAULT.ret(),
        "straddling"
    );
    assert_eq!(t.call(nr::READ, &[fd, 0xc0000, 16]), 16);
}

#[test]
fn zero_length_writes_change_nothing() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    t.call(nr::CLOSE, &[3]);
    assert_eq!(t.call(nr::WRITE, &[4, BUF2, 0]), 0, "no SIGPIPE");
    assert_eq!(t.k.proc(1).state, PState::Running);
    let fd = t.open("/tmp/f", RW_CREAT, 0o644) as u64;
    t.call(nr::LSEEK, &[fd, 100, 0]);
    assert_eq!(t.call(nr::WRITE, &[fd, BUF2, 0]), 0);
    assert_eq!(t.call(nr::FSTAT, &[fd, BUF]), 0);
    assert_eq!(t.get_obj::<Stat>(BUF).size, 0, "no growth");
}

#[test]
fn dup3_checks_in_linuxs_order_and_respects_nofile() {
    let mut t = T::new();
    assert_eq!(
        t.call(nr::DUP3, &[77, 77, 0]),
        EINVAL.ret(),
        "same fd first"
    );
    t.put(BUF, bytemuck::bytes_of(&Rlimit { cur: 10, max: 10 }));
    t.call(nr::SETRLIMIT, &[rlimit::NOFILE as u64, BUF]);
    assert_eq!(
        t.call(nr::DUP3, &[1, 10, 0]),
        EBADF.ret(),
        "past RLIMIT_NOFILE"
    );
    assert_eq!(t.call(nr::DUP3, &[1, 9, 0]), 9);
    t.put(BUF, bytemuck::bytes_of(&Rlimit { cur: 0, max: 10 }));
    t.call(nr::SETRLIMIT, &[rlimit::NOFILE as u64, BUF]);
    assert_eq!(t.open("/tmp/x", RW_CREAT, 0o644), EMFILE.ret());
}

#[test]
fn a_syscall_cannot_write_into_read_only_segments() {
    // The harness's program has a read-only, executable segment at 0x10000.
    let mut t = T::new();
    let fd = t.open("/dev/zero", 0, 0) as u64;
    assert_eq!(t.call(nr::READ, &[fd, 0x10000, 16]), EFAULT.ret());
    assert_eq!(
        t.call(nr::CLOCK_GETTIME, &[0, 0x10ff8]),
        EFAULT.ret(),
        "straddling its end"
    );
    assert_eq!(t.call(nr::READ, &[fd, 0x11000, 16]), 16, "just past it");
}

#[test]
fn a_nonblocking_stdin_read_leaves_no_wait_behind() {
    let mut t = T::new();
    t.k.stdin = crate::os::Stdin::new(1);
    assert_eq!(
        t.call(nr::READ, &[0, BUF, 0]),
        0,
        "a zero-length read returns at once"
    );
    t.call(nr::FCNTL, &[0, F_SETFL, O_NONBLOCK]);
    let r = t.call(nr::READ, &[0, BUF, 4]);
    if r == EAGAIN.ret() {
        assert!(!t.k.proc(1).input_wait, "EAGAIN is an answer, not a wait");
    }
}

#[test]
fn a_read_into_read_only_memory_consumes_nothing() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF, 0]);
    t.write_fd(4, b"kept");
    assert_eq!(t.call(nr::READ, &[3, 0x10000, 4]), EFAULT.ret());
    assert_eq!(t.read_fd(3, 10).unwrap(), b"kept");
}

#[test]
fn a_socketpair_carries_bytes_both_ways_until_shutdown() {
    let mut t = T::new();
    assert_eq!(t.call(nr::SOCKETPAIR, &[1, 1, 0, BUF]), 0);
    let [a, b]: [i32; 2] = t.get_obj(BUF);
    let (a, b) = (a as i64, b as i64);
    assert_eq!(t.write_fd(a, b"ping"), 4);
    assert_eq!(t.read_fd(b, 16).unwrap(), b"ping");
    assert_eq!(t.write_fd(b, b"pong"), 4);
    assert_eq!(t.read_fd(a, 16).unwrap(), b"pong");
    // SHUT_WR: the peer reads end of file; this end still reads.
    assert_eq!(t.call(nr::SHUTDOWN, &[a as u64, 1]), 0);
    assert_eq!(t.read_fd(b, 16).unwrap(), b"");
    assert_eq!(t.write_fd(b, b"late"), 4);
    assert_eq!(t.read_fd(a, 16).unwrap(), b"late");
    assert_eq!(t.call(nr::SHUTDOWN, &[a as u64, 3]), EINVAL.ret());
    assert_eq!(t.call(nr::SHUTDOWN, &[1, 1]), ENOTSOCK.ret());
}

#[test]
fn sockets_garm_has_not_are_refused_with_their_errno() {
    let mut t = T::new();
    assert_eq!(
        t.call(nr::SOCKETPAIR, &[2, 1, 0, BUF]),
        EAFNOSUPPORT.ret(),
        "AF_INET pair"
    );
    assert_eq!(
        t.call(nr::SOCKETPAIR, &[1, 2, 0, BUF]),
        EOPNOTSUPP.ret(),
        "datagrams"
    );
    assert_eq!(
        t.call(nr::SOCKETPAIR, &[1, 1, 6, BUF]),
        EPROTONOSUPPORT.ret()
    );
    assert_eq!(
        t.call(nr::SOCKETPAIR, &[1, 1 | 0x100, 0, BUF]),
        EINVAL.ret(),
        "bad flags"
    );
    assert_eq!(
        t.call(nr::SOCKET, &[2, 1, 0]),
        EACCES.ret(),
        "AF_INET: the network is off"
    );
    assert_eq!(t.call(nr::SOCKET, &[10, 2, 0]), EACCES.ret(), "AF_INET6");
    assert_eq!(
        t.call(nr::SOCKET, &[1, 2, 0]),
        ESOCKTNOSUPPORT.ret(),
        "AF_UNIX datagrams"
    );
    assert_eq!(t.call(nr::SOCKET, &[16, 1, 0]), EAFNOSUPPORT.ret());
    assert_eq!(t.call(nr::SENDTO, &[1, BUF, 1, 0, 0, 0]), ENOTSOCK.ret());
}
