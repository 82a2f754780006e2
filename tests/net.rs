//! Sockets and waiting on many things: a guest TCP echo server on 127.0.0.1 under `--net`
//! serving a host client and a guest client (known answers: an echo is its input), AF_UNIX
//! streams by path between guest processes and a poll/select-driven pipeline (both against
//! qemu-aarch64). Every run is bounded by `--timeout` and the test's own deadlines.

mod common;
use common::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn a_guest_tcp_echo_server_serves_a_host_client_and_a_guest_client() {
    let server = build_with("tests/net/echo_server", &["--libc", "glibc"]);
    let client = build_with("tests/net/echo_client", &["--libc", "glibc"]);
    let mut srv = Command::new(garm_bin())
        .args(["run", "--net", "--timeout", "120"])
        .arg(&server)
        .arg("2")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn garm");
    let mut out = BufReader::new(srv.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let port: u16 = first
        .strip_prefix("port ")
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no port line: {first:?}"));

    // The host client: 64 KiB in pieces, all of it echoed back in order.
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to the guest");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let sent: Vec<u8> = (0..65536u32).map(|i| (i * 7 + i / 251) as u8).collect();
    let writer = {
        let mut w = s.try_clone().unwrap();
        let sent = sent.clone();
        std::thread::spawn(move || {
            for c in sent.chunks(1000) {
                w.write_all(c).unwrap();
            }
            w.shutdown(std::net::Shutdown::Write).unwrap();
        })
    };
    let mut back = Vec::new();
    s.read_to_end(&mut back).expect("the echo");
    writer.join().unwrap();
    assert!(
        back == sent,
        "echo of {} bytes differs ({} back)",
        sent.len(),
        back.len()
    );

    // The guest client, in another garm.
    let port = port.to_string();
    let c = garm(
        &[
            "--net",
            "--timeout",
            "120",
            client.to_str().unwrap(),
            &port,
            "20",
        ],
        b"",
    );
    assert_eq!(
        c.out(),
        "client ok: 20 lines echoed, peer port matches, then end of file\n",
        "{}",
        c.stderr
    );
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let st = srv.wait().unwrap();
    let bytes = 65536
        + (0..20)
            .map(|i| format!("line {i} from the guest\n").len())
            .sum::<usize>();
    assert_eq!(rest, format!("served 2 clients (type 1), {bytes} bytes\n"));
    assert!(st.success(), "server: {st:?}");
}

#[test]
fn without_net_inet_sockets_are_refused_and_say_why() {
    let client = build_with("tests/net/echo_client", &["--libc", "glibc"]);
    let r = garm(&["--strace", client.to_str().unwrap(), "9", "1"], b"");
    assert_eq!(r.out(), "socket: Permission denied\n");
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains("the network is off (run with --net)"),
        "{}",
        r.stderr
    );
}

#[test]
fn unix_stream_sockets_by_path_between_processes() {
    let elf = build_with("tests/net/unix_stream", &["--libc", "glibc"]);
    let host_path = tmp().join(format!("unix-{}.sock", std::process::id()));
    let host_path = host_path.to_str().unwrap();
    let q = qemu(&elf, &[host_path], &[], b"");
    let g = garm(
        &["--timeout", "120", elf.to_str().unwrap(), "/tmp/test.sock"],
        b"",
    );
    assert_eq!(g.out(), q.out(), "garm stderr: {}", g.stderr);
    assert_eq!((g.status, q.status), (0, 0));
    assert!(g.out().contains("kid 2: ok"), "{}", g.out());
}

#[test]
fn a_poll_and_select_driven_pipeline() {
    let elf = build_with("tests/net/poll_pipeline", &["--libc", "glibc"]);
    let r = same_as_qemu(&elf, &["--timeout", "120"], &[], b"");
    assert!(r.out().contains(": agrees;"), "{}", r.out());
    assert!(r.out().ends_with("children: all exited 0\n"), "{}", r.out());
}

#[test]
fn epoll_and_eventfd_between_processes() {
    let elf = build_with("tests/net/epoll_events", &["--libc", "glibc"]);
    let r = same_as_qemu(&elf, &["--timeout", "120"], &[], b"");
    assert!(r.out().contains("eventfd signals: 3\n"), "{}", r.out());
    assert!(
        r.out().contains("oneshot: 1 then 0, re-armed 1"),
        "{}",
        r.out()
    );
}
