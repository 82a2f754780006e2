//! ppoll and pselect6.

use super::*;

fn pollfds(t: &mut T, fds: &[(i32, i16)]) {
    let v: Vec<PollFd> = fds
        .iter()
        .map(|&(fd, events)| PollFd {
            fd,
            events,
            revents: 0,
        })
        .collect();
    t.put(BUF, bytemuck::cast_slice(&v));
}

fn revents(t: &mut T, n: usize) -> Vec<i16> {
    (0..n)
        .map(|i| t.get_obj::<PollFd>(BUF + i as u64 * 8).revents)
        .collect()
}

#[test]
fn ppoll_reports_pipes_files_and_bad_fds() {
    use crate::os::abi::poll as ev;
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF2 + 0x800, 0]);
    let f = t.open("/tmp/f", O_RDWR | O_CREAT, 0o644) as i32;
    // An empty pipe: only the write end is ready.
    pollfds(
        &mut t,
        &[
            (3, ev::IN),
            (4, ev::OUT),
            (f, ev::IN | ev::OUT),
            (99, ev::IN),
            (-1, ev::IN),
        ],
    );
    assert_eq!(t.call(nr::PPOLL, &[BUF, 5, 0, 0, 8]), 3);
    assert_eq!(
        revents(&mut t, 5),
        [0, ev::OUT, ev::IN | ev::OUT, ev::NVAL, 0]
    );
    // Nothing ready and no timeout: wait; a zero timeout: 0 at once.
    pollfds(&mut t, &[(3, ev::IN)]);
    assert_eq!(t.sys(nr::PPOLL, &[BUF, 1, 0, 0, 8]), Sys::Block);
    t.put(BUF2, bytemuck::bytes_of(&Timespec::default()));
    assert_eq!(t.call(nr::PPOLL, &[BUF, 1, BUF2, 0, 8]), 0);
    // Data, then the writer gone.
    t.write_fd(4, b"x");
    assert_eq!(t.call(nr::PPOLL, &[BUF, 1, 0, 0, 8]), 1);
    assert_eq!(revents(&mut t, 1), [ev::IN]);
    t.call(nr::CLOSE, &[4]);
    t.read_fd(3, 1).unwrap();
    assert_eq!(t.call(nr::PPOLL, &[BUF, 1, 0, 0, 8]), 1);
    assert_eq!(revents(&mut t, 1), [ev::HUP]);
    assert_eq!(t.call(nr::PPOLL, &[BUF, 5000, 0, 0, 8]), EINVAL.ret());
    assert_eq!(t.call(nr::PPOLL, &[BAD, 1, 0, 0, 8]), EFAULT.ret());
}

#[test]
fn ppoll_times_out() {
    use crate::os::abi::poll as ev;
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF2 + 0x800, 0]);
    pollfds(&mut t, &[(3, ev::IN)]);
    t.put(
        BUF2,
        bytemuck::bytes_of(&Timespec {
            sec: 0,
            nsec: 1_000_000,
        }),
    );
    assert_eq!(t.sys(nr::PPOLL, &[BUF, 1, BUF2, 0, 8]), Sys::Block);
    std::thread::sleep(std::time::Duration::from_millis(2));
    assert_eq!(t.call(nr::PPOLL, &[BUF, 1, BUF2, 0, 8]), 0);
    assert!(!t.k.sleeping());
}

#[test]
fn pselect_sets_the_ready_bits() {
    let mut t = T::new();
    t.call(nr::PIPE2, &[BUF2 + 0x800, 0]);
    // Read set {3}, write set {4}.
    t.put(BUF, &(1u64 << 3).to_le_bytes());
    t.put(BUF + 8, &(1u64 << 4).to_le_bytes());
    assert_eq!(t.call(nr::PSELECT6, &[5, BUF, BUF + 8, 0, 0, 0]), 1);
    assert_eq!(t.get_obj::<u64>(BUF), 0);
    assert_eq!(t.get_obj::<u64>(BUF + 8), 1 << 4);
    t.write_fd(4, b"x");
    t.put(BUF, &(1u64 << 3).to_le_bytes());
    assert_eq!(t.call(nr::PSELECT6, &[5, BUF, 0, 0, 0, 0]), 1);
    assert_eq!(t.get_obj::<u64>(BUF), 1 << 3);
    t.put(BUF, &(1u64 << 9).to_le_bytes());
    assert_eq!(t.call(nr::PSELECT6, &[10, BUF, 0, 0, 0, 0]), EBADF.ret());
    assert_eq!(
        t.call(nr::PSELECT6, &[u32::MAX as u64, 0, 0, 0, 0, 0]),
        EINVAL.ret()
    );
    t.put(BUF2, bytemuck::bytes_of(&Timespec::default()));
    assert_eq!(
        t.call(nr::PSELECT6, &[5000, 0, 0, 0, BUF2, 0]),
        0,
        "clamped, not EINVAL"
    );
}
