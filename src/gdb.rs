//! `garm run -g PORT`: a gdb remote stub (the remote serial protocol over TCP on 127.0.0.1).
//! It follows one process, the first instance's root: its registers (the aarch64 target
//! description: x0-x30, sp, pc, cpsr, v0-v31, fpsr, fpcr), memory, software breakpoints (BRK
//! written into that process's own copy of the page), single steps, Ctrl-C, its signals and its
//! exit. The protocol side sees the guest through [`Guest`], so it is unit-tested without a GPU;
//! the run loop decides when the process stops (src/run.rs).

use crate::gpu::layout;
use crate::guest::Guest;
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};

/// BRK #0, the instruction gdb's aarch64 target uses for breakpoints.
pub const BRK0: [u8; 4] = 0xd420_0000u32.to_le_bytes();

/// What gdb asked the process to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Continue,
    Step,
    /// gdb went away (`detach`, or the connection closed): the run goes on without it.
    Detach,
    /// `kill`: the run ends.
    Kill,
}

/// Why the followed process stopped, as gdb is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StopWhy {
    /// The signal reported (SIGTRAP for breakpoints and steps, SIGINT for Ctrl-C, the fault's).
    pub signal: i32,
    /// Stopped at one of the stub's breakpoints: it runs on from there (gdb has restored the
    /// instruction), where any other stop's cause stands.
    pub breakpoint: bool,
}

/// The process gdb looks at, for one stop.
pub struct View<'a> {
    pub guest: &'a mut dyn Guest,
    pub slot: usize,
    /// Its pid (gdb's thread id).
    pub tid: u32,
    /// Makes `/proc/PID/maps` of the process from its memory (`info proc mappings` reads it
    /// through vFile): only when gdb asks.
    pub maps: &'a dyn Fn(&dyn Guest) -> String,
}

/// Registers in the target description's order: x0-x30, sp, pc (8 bytes), cpsr (4), v0-v31
/// (16), fpsr, fpcr (4).
const NREGS: usize = 68;
const REG_V0: usize = 34;

fn reg_size(r: usize) -> usize {
    match r {
        0..=32 => 8,
        REG_V0..=65 => 16,
        _ => 4,
    }
}

/// The target description gdb reads with qXfer:features:read (gdb's aarch64 feature names).
fn target_xml() -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target>\n\
         <architecture>aarch64</architecture>\n<osabi>GNU/Linux</osabi>\n\
         <feature name=\"org.gnu.gdb.aarch64.core\">\n",
    );
    for r in 0..31 {
        x += &format!("<reg name=\"x{r}\" bitsize=\"64\" type=\"int\" regnum=\"{r}\"/>\n");
    }
    x += "<reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\"/>\n\
          <reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\"/>\n\
          <flags id=\"cpsr_flags\" size=\"4\">\
          <field name=\"V\" start=\"28\" end=\"28\"/><field name=\"C\" start=\"29\" end=\"29\"/>\
          <field name=\"Z\" start=\"30\" end=\"30\"/><field name=\"N\" start=\"31\" end=\"31\"/>\
          </flags>\n<reg name=\"cpsr\" bitsize=\"32\" type=\"cpsr_flags\"/>\n</feature>\n\
          <feature name=\"org.gnu.gdb.aarch64.fpu\">\n\
          <vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>\
          <vector id=\"v2u\" type=\"uint64\" count=\"2\"/>\
          <vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>\
          <vector id=\"v4u\" type=\"uint32\" count=\"4\"/>\
          <vector id=\"v8u\" type=\"uint16\" count=\"8\"/>\
          <vector id=\"v16u\" type=\"uint8\" count=\"16\"/>\
          <union id=\"vnd\"><field name=\"f\" type=\"v2d\"/><field name=\"u\" type=\"v2u\"/></union>\
          <union id=\"vns\"><field name=\"f\" type=\"v4f\"/><field name=\"u\" type=\"v4u\"/></union>\
          <union id=\"vnh\"><field name=\"u\" type=\"v8u\"/></union>\
          <union id=\"vnb\"><field name=\"u\" type=\"v16u\"/></union>\
          <union id=\"aarch64v\"><field name=\"d\" type=\"vnd\"/><field name=\"s\" type=\"vns\"/>\
          <field name=\"h\" type=\"vnh\"/><field name=\"b\" type=\"vnb\"/>\
          <field name=\"q\" type=\"uint128\"/></union>\n";
    for r in 0..32 {
        x += &format!("<reg name=\"v{r}\" bitsize=\"128\" type=\"aarch64v\"/>\n");
    }
    x += "<reg name=\"fpsr\" bitsize=\"32\" type=\"int\"/>\n\
          <reg name=\"fpcr\" bitsize=\"32\" type=\"int\"/>\n</feature>\n</target>\n";
    x
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

fn num(s: &str) -> Option<u64> {
    u64::from_str_radix(s, 16).ok()
}

/// `addr,len` of m, M, Z and z packets.
fn addr_len(s: &str) -> Option<(u64, usize)> {
    let (a, l) = s.split_once(',')?;
    Some((num(a)?, num(l)? as usize))
}

/// Escapes binary data for a packet (`}` then the byte xor 0x20, for `#$}*`).
fn escape(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    for &b in data {
        if matches!(b, b'#' | b'$' | b'}' | b'*') {
            out.extend([b'}', b ^ 0x20]);
        } else {
            out.push(b);
        }
    }
    out
}

/// The protocol state: the connection, breakpoints, what the process is doing for gdb.
pub struct Stub {
    conn: Option<TcpStream>,
    /// Bytes received and not yet taken as packets.
    inbuf: Vec<u8>,
    ack: bool,
    /// Breakpoints inserted: their address and the bytes BRK replaced.
    breakpoints: BTreeMap<u64, [u8; 4]>,
    /// A stop waiting to be told to gdb (the start is one; gdb asks for it with `?`).
    pub pending: Option<StopWhy>,
    /// Since the process was last stopped: `Continue`, or `Step` from that instruction count.
    pub running: Option<(Action, u64)>,
    /// The last stop was this fault, told to gdb: at the next sight of it the process takes
    /// it as without gdb.
    pub fault_told: bool,
    /// The first stop is answered to gdb's `?`, not sent unasked.
    started: bool,
    /// An open vFile (the maps text), by descriptor.
    files: BTreeMap<u64, Vec<u8>>,
    /// gdb speaks the multiprocess extensions: thread ids are `pPID.TID` (it then knows the
    /// pid, which `info proc` needs).
    multiprocess: bool,
    /// The followed process's pid, for the exit packet.
    pid: u32,
}

impl Stub {
    /// Listens on 127.0.0.1:`port` (0: a free port) and waits for gdb to connect; says where on
    /// stderr.
    pub fn listen(port: u16) -> io::Result<Stub> {
        let l = TcpListener::bind(("127.0.0.1", port))?;
        let port = l.local_addr()?.port();
        crate::elog!("garm: gdb: waiting for a connection on 127.0.0.1:{port}");
        let (conn, _) = l.accept()?;
        conn.set_nodelay(true)?;
        Ok(Stub::over(conn))
    }

    /// A stub over a connection already made.
    pub fn over(conn: TcpStream) -> Stub {
        Stub {
            conn: Some(conn),
            inbuf: Vec::new(),
            ack: true,
            breakpoints: BTreeMap::new(),
            pending: Some(StopWhy {
                signal: crate::os::abi::sig::SIGTRAP,
                breakpoint: false,
            }),
            running: None,
            fault_told: false,
            started: false,
            files: BTreeMap::new(),
            multiprocess: false,
            pid: 0,
        }
    }

    /// Whether gdb is still there.
    pub fn attached(&self) -> bool {
        self.conn.is_some()
    }

    pub fn is_breakpoint(&self, pc: u64) -> bool {
        self.breakpoints.contains_key(&pc)
    }

    fn send(&mut self, body: &[u8]) -> io::Result<()> {
        let sum = body.iter().fold(0u8, |a, &b| a.wrapping_add(b));
        let mut pkt = Vec::with_capacity(body.len() + 4);
        pkt.push(b'$');
        pkt.extend_from_slice(body);
        pkt.extend_from_slice(format!("#{sum:02x}").as_bytes());
        let conn = self.conn.as_mut().ok_or(io::ErrorKind::NotConnected)?;
        conn.write_all(&pkt)?;
        // With acks on, gdb answers each packet with '+' (or '-' to ask again); the reader
        // skips them, and a corrupt TCP stream is not a case worth a resend.
        conn.flush()
    }

    /// The next packet's body, waiting for it; `None` when gdb closed the connection. A Ctrl-C
    /// byte between packets comes back as "\x03".
    fn recv(&mut self) -> io::Result<Option<String>> {
        loop {
            // Acks and stray bytes before a packet start.
            while let Some(&b) = self.inbuf.first() {
                if b == b'$' {
                    break;
                }
                self.inbuf.remove(0);
                if b == 3 {
                    return Ok(Some("\x03".into()));
                }
            }
            if let Some(hash) = self.inbuf.iter().position(|&b| b == b'#') {
                if self.inbuf.len() >= hash + 3 {
                    let body = String::from_utf8_lossy(&self.inbuf[1..hash]).into_owned();
                    self.inbuf.drain(..hash + 3);
                    if self.ack {
                        let c = self.conn.as_mut().ok_or(io::ErrorKind::NotConnected)?;
                        c.write_all(b"+")?;
                    }
                    return Ok(Some(body));
                }
            }
            let mut buf = [0u8; 4096];
            let Some(c) = self.conn.as_mut() else {
                return Ok(None);
            };
            c.set_nonblocking(false)?;
            match c.read(&mut buf) {
                Ok(0) => return Ok(None),
                Ok(n) => self.inbuf.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Whether gdb sent Ctrl-C while the process runs (no wait).
    pub fn interrupted(&mut self) -> bool {
        let Some(c) = self.conn.as_mut() else {
            return false;
        };
        let mut buf = [0u8; 256];
        if c.set_nonblocking(true).is_err() {
            return false;
        }
        let got = c.read(&mut buf);
        let _ = c.set_nonblocking(false);
        match got {
            Ok(0) => {
                // gdb went away: the process runs on by itself.
                self.conn = None;
                false
            }
            Ok(n) => {
                let hit = buf[..n].contains(&3);
                self.inbuf.extend(buf[..n].iter().filter(|&&b| b != 3));
                hit
            }
            Err(_) => false,
        }
    }

    /// Tells gdb the process ended: `W` with its exit status, or `X` with the signal that
    /// ended it (a Linux wait status `ws`). The connection then closes.
    pub fn ended(&mut self, ws: i32) {
        let mut pkt = if ws & 0x7f == 0 {
            format!("W{:02x}", (ws >> 8) & 0xff)
        } else {
            format!("X{:02x}", ws & 0x7f)
        };
        if self.multiprocess {
            pkt += &format!(";process:{:x}", self.pid);
        }
        if self.running.is_some() || !self.started {
            let _ = self.send(pkt.as_bytes());
        }
        self.conn = None;
    }

    /// Puts every breakpoint's instruction back (gdb detached).
    pub fn clear_breakpoints(&mut self, g: &mut dyn Guest, slot: usize) {
        for (addr, orig) in std::mem::take(&mut self.breakpoints) {
            let _ = g.write_mem(slot, addr, &orig);
        }
    }

    fn stop_reply(&self, why: StopWhy, tid: u32) -> String {
        format!("T{:02x}thread:{};", why.signal, self.thread_id(tid))
    }

    fn thread_id(&self, tid: u32) -> String {
        if self.multiprocess {
            format!("p{tid:x}.{tid:x}")
        } else {
            format!("{tid:x}")
        }
    }

    /// Tells gdb of the pending stop (unless it is the start, which gdb asks for) and answers
    /// packets until gdb resumes, detaches or kills the process.
    pub fn serve(&mut self, v: &mut View) -> io::Result<Action> {
        let why = self.pending.take().unwrap_or(StopWhy {
            signal: crate::os::abi::sig::SIGTRAP,
            breakpoint: false,
        });
        self.running = None;
        self.pid = v.tid;
        if self.started {
            self.send(self.stop_reply(why, v.tid).as_bytes())?;
        }
        self.started = true;
        loop {
            let Some(pkt) = self.recv()? else {
                self.conn = None;
                return Ok(Action::Detach);
            };
            if let Some(a) = self.packet(&pkt, why, v)? {
                return Ok(a);
            }
        }
    }

    /// Answers one packet; `Some` when it resumes or ends the process.
    fn packet(&mut self, pkt: &str, why: StopWhy, v: &mut View) -> io::Result<Option<Action>> {
        let (cmd, rest) = pkt.split_at(pkt.chars().next().map_or(0, |c| c.len_utf8()));
        let reply: Vec<u8> = match cmd {
            "\x03" => return Ok(None), // already stopped
            "?" => self.stop_reply(why, v.tid).into_bytes(),
            "g" => match read_regs(v) {
                Some(r) => hex(&r).into_bytes(),
                None => b"E14".to_vec(),
            },
            "G" => match unhex(rest).filter(|b| b.len() >= regs_len()) {
                Some(bytes) => ok(write_regs(v, &bytes)),
                None => b"E01".to_vec(),
            },
            "p" => match num(rest).map(|r| r as usize).filter(|&r| r < NREGS) {
                Some(r) => match read_reg(v, r, &mut None) {
                    Some(b) => hex(&b).into_bytes(),
                    None => b"E14".to_vec(),
                },
                None => b"E01".to_vec(),
            },
            "P" => {
                let set = rest.split_once('=').and_then(|(r, val)| {
                    let r = num(r)? as usize;
                    let val = unhex(val)?;
                    (r < NREGS && val.len() == reg_size(r)).then_some((r, val))
                });
                match set {
                    Some((r, val)) => {
                        let mut vregs = None;
                        let done = write_reg(v, r, &val, &mut vregs).is_some();
                        ok(done && store_vregs(v, vregs))
                    }
                    None => b"E01".to_vec(),
                }
            }
            "m" => match addr_len(rest) {
                Some((addr, len)) => match self.read_memory(v, addr, len.min(0x4000)) {
                    Some(b) => hex(&b).into_bytes(),
                    None => b"E14".to_vec(),
                },
                None => b"E01".to_vec(),
            },
            "M" => {
                let w = rest.split_once(':').and_then(|(al, data)| {
                    let (addr, len) = addr_len(al)?;
                    let data = unhex(data)?;
                    (data.len() == len).then_some((addr, data))
                });
                match w {
                    Some((addr, data)) => ok(self.write_memory(v, addr, &data)),
                    None => b"E01".to_vec(),
                }
            }
            "Z" | "z" => {
                // Z0 (software) and Z1 (hardware) breakpoints both become BRK; watchpoints
                // are not offered (an empty reply: gdb then single-steps for them).
                let mut parts = rest.splitn(3, ',');
                let kind = parts.next().unwrap_or("");
                let addr = parts.next().and_then(num);
                match (kind, addr) {
                    ("0" | "1", Some(addr)) if cmd == "Z" => ok(self.insert(v, addr)),
                    ("0" | "1", Some(addr)) => ok(self.remove(v, addr)),
                    _ => Vec::new(),
                }
            }
            "c" | "C" => return self.resume(Action::Continue, v),
            "s" | "S" => return self.resume(Action::Step, v),
            "v" => {
                if rest == "Cont?" {
                    b"vCont;c;C;s;S".to_vec()
                } else if let Some(acts) = rest.strip_prefix("Cont;") {
                    // One thread: the first action names what it does.
                    let first = acts.split(';').next().unwrap_or("");
                    return match first.chars().next() {
                        Some('s' | 'S') => self.resume(Action::Step, v),
                        Some('c' | 'C') => self.resume(Action::Continue, v),
                        _ => {
                            self.send(b"E01")?;
                            Ok(None)
                        }
                    };
                } else if rest == "MustReplyEmpty" {
                    Vec::new()
                } else if let Some(f) = rest.strip_prefix("File:") {
                    self.vfile(f, v)
                } else if rest.starts_with("Kill") {
                    self.send(b"OK")?;
                    return Ok(Some(Action::Kill));
                } else {
                    Vec::new()
                }
            }
            "q" => self.query(rest, v),
            "Q" => {
                if rest == "StartNoAckMode" {
                    self.send(b"OK")?;
                    self.ack = false;
                    return Ok(None);
                }
                Vec::new()
            }
            "H" => b"OK".to_vec(),
            "T" => b"OK".to_vec(),
            "D" => {
                self.send(b"OK")?;
                self.clear_breakpoints(v.guest, v.slot);
                self.conn = None;
                return Ok(Some(Action::Detach));
            }
            "k" => return Ok(Some(Action::Kill)),
            _ => Vec::new(),
        };
        self.send(&reply)?;
        Ok(None)
    }

    fn resume(&mut self, a: Action, v: &mut View) -> io::Result<Option<Action>> {
        let count = v.guest.word64(v.slot, layout::S_COUNT);
        self.running = Some((a, count));
        Ok(Some(a))
    }

    fn query(&mut self, q: &str, v: &mut View) -> Vec<u8> {
        if q.starts_with("Supported") {
            self.multiprocess = q.contains("multiprocess+");
            let mut r =
                "PacketSize=4000;qXfer:features:read+;QStartNoAckMode+;vContSupported+".to_string();
            if self.multiprocess {
                r += ";multiprocess+";
            }
            return r.into_bytes();
        }
        if let Some(req) = q.strip_prefix("Xfer:features:read:") {
            let Some((annex, range)) = req.split_once(':') else {
                return b"E01".to_vec();
            };
            if annex != "target.xml" {
                return b"E00".to_vec();
            }
            let Some((off, len)) = addr_len(range) else {
                return b"E01".to_vec();
            };
            let xml = target_xml().into_bytes();
            let off = off.min(xml.len() as u64) as usize;
            let end = (off + len).min(xml.len());
            let mut out = vec![if end == xml.len() { b'l' } else { b'm' }];
            out.extend(escape(&xml[off..end]));
            return out;
        }
        match q {
            "C" => format!("QC{}", self.thread_id(v.tid)).into_bytes(),
            "fThreadInfo" => format!("m{}", self.thread_id(v.tid)).into_bytes(),
            "sThreadInfo" => b"l".to_vec(),
            // garm started the process: gdb kills it when it quits.
            "Attached" => b"0".to_vec(),
            q if q.starts_with("Symbol") => b"OK".to_vec(),
            _ => Vec::new(),
        }
    }

    /// Host I/O for `info proc mappings`: only /proc/PID/maps of the followed process opens.
    fn vfile(&mut self, f: &str, v: &mut View) -> Vec<u8> {
        let (op, args) = f.split_once(':').unwrap_or((f, ""));
        let a: Vec<&str> = args.split(',').collect();
        match op {
            "setfs" => b"F0".to_vec(),
            "open" => {
                let path = a.first().and_then(|p| unhex(p)).unwrap_or_default();
                let path = String::from_utf8_lossy(&path).into_owned();
                let mine = [format!("/proc/{}/maps", v.tid), "/proc/self/maps".into()];
                if mine.contains(&path) {
                    let fd = self.files.keys().next_back().map_or(3, |k| k + 1);
                    let text = (v.maps)(&*v.guest);
                    self.files.insert(fd, text.into_bytes());
                    format!("F{fd:x}").into_bytes()
                } else {
                    b"F-1,2".to_vec() // ENOENT
                }
            }
            "pread" => {
                let arg = |i: usize| a.get(i).and_then(|x| num(x));
                match (arg(0), arg(1), arg(2)) {
                    (Some(fd), Some(count), Some(off)) if self.files.contains_key(&fd) => {
                        let data = &self.files[&fd];
                        let off = (off as usize).min(data.len());
                        let end = (off + count as usize).min(data.len());
                        let mut out = format!("F{:x};", end - off).into_bytes();
                        out.extend(escape(&data[off..end]));
                        out
                    }
                    _ => b"F-1,9".to_vec(), // EBADF
                }
            }
            "close" => match a.first().and_then(|x| num(x)) {
                Some(fd) if self.files.remove(&fd).is_some() => b"F0".to_vec(),
                _ => b"F-1,9".to_vec(),
            },
            _ => Vec::new(),
        }
    }

    /// Memory as the program has it (breakpoints show their original bytes); a range that
    /// runs into unmapped memory reads up to there.
    fn read_memory(&self, v: &mut View, addr: u64, len: usize) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(len);
        let mut a = addr;
        let end = addr.checked_add(len as u64)?;
        while a < end {
            let n = ((a | 0xfff) + 1).min(end) - a;
            if !v.guest.in_bounds(v.slot, a, n as usize) {
                break;
            }
            match v.guest.read_mem(v.slot, a, n as usize) {
                Ok(b) => out.extend(b),
                Err(_) => break,
            }
            a += n;
        }
        if out.is_empty() && len > 0 {
            return None;
        }
        for (&bp, orig) in self.breakpoints.range(addr.saturating_sub(3)..end) {
            for (i, &b) in orig.iter().enumerate() {
                let at = bp + i as u64;
                if at >= addr && ((at - addr) as usize) < out.len() {
                    out[(at - addr) as usize] = b;
                }
            }
        }
        Some(out)
    }

    fn write_memory(&mut self, v: &mut View, addr: u64, data: &[u8]) -> bool {
        if !v.guest.in_bounds(v.slot, addr, data.len()) {
            return false;
        }
        v.guest.write_mem(v.slot, addr, data).is_ok()
    }

    fn insert(&mut self, v: &mut View, addr: u64) -> bool {
        if self.breakpoints.contains_key(&addr) {
            return true;
        }
        if addr & 3 != 0 || !v.guest.in_bounds(v.slot, addr, 4) {
            return false;
        }
        let Ok(orig) = v.guest.read_mem(v.slot, addr, 4) else {
            return false;
        };
        if v.guest.write_mem(v.slot, addr, &BRK0).is_err() {
            return false;
        }
        self.breakpoints
            .insert(addr, [orig[0], orig[1], orig[2], orig[3]]);
        true
    }

    fn remove(&mut self, v: &mut View, addr: u64) -> bool {
        match self.breakpoints.remove(&addr) {
            Some(orig) => v.guest.write_mem(v.slot, addr, &orig).is_ok(),
            None => true,
        }
    }
}

fn ok(done: bool) -> Vec<u8> {
    if done {
        b"OK".to_vec()
    } else {
        b"E14".to_vec()
    }
}

fn regs_len() -> usize {
    (0..NREGS).map(reg_size).sum()
}

/// Register `r`'s bytes (little-endian); `vregs` is read from the device only for a V register.
fn read_reg(v: &mut View, r: usize, vregs: &mut Option<[u128; 32]>) -> Option<Vec<u8>> {
    let (g, s) = (&mut *v.guest, v.slot);
    Some(match r {
        0..=31 => g.reg(s, r).to_le_bytes().to_vec(),
        32 => g.pc(s).to_le_bytes().to_vec(),
        33 => (g.st(s)[layout::S_NZCV] << 28).to_le_bytes().to_vec(),
        REG_V0..=65 => {
            if vregs.is_none() {
                *vregs = Some(g.vregs(s).ok()?);
            }
            vregs.as_ref()?[r - REG_V0].to_le_bytes().to_vec()
        }
        66 => g.st(s)[layout::S_FPSR].to_le_bytes().to_vec(),
        _ => g.st(s)[layout::S_FPCR].to_le_bytes().to_vec(),
    })
}

/// Every register in the target description's order.
fn read_regs(v: &mut View) -> Option<Vec<u8>> {
    let mut vregs = None;
    let mut out = Vec::with_capacity(regs_len());
    for r in 0..NREGS {
        out.extend(read_reg(v, r, &mut vregs)?);
    }
    Some(out)
}

/// Sets register `r` from `b` (its size); V registers are read, changed and written back
/// through `vregs`, which the caller then stores with [`store_vregs`].
fn write_reg(v: &mut View, r: usize, b: &[u8], vregs: &mut Option<[u128; 32]>) -> Option<()> {
    let (g, s) = (&mut *v.guest, v.slot);
    let word = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap());
    match r {
        0..=31 => g.set_reg(s, r, u64::from_le_bytes(b.try_into().ok()?)),
        32 => g.set_pc(s, u64::from_le_bytes(b.try_into().ok()?)),
        33 => g.st_mut(s)[layout::S_NZCV] = word(b) >> 28,
        REG_V0..=65 => {
            if vregs.is_none() {
                *vregs = Some(g.vregs(s).ok()?);
            }
            vregs.as_mut()?[r - REG_V0] = u128::from_le_bytes(b.try_into().ok()?);
        }
        66 => g.st_mut(s)[layout::S_FPSR] = word(b),
        _ => g.st_mut(s)[layout::S_FPCR] = word(b),
    }
    Some(())
}

fn store_vregs(v: &mut View, vregs: Option<[u128; 32]>) -> bool {
    vregs.is_none_or(|q| v.guest.set_vregs(v.slot, &q).is_ok())
}

/// Sets every register from `b` (the `g` layout).
fn write_regs(v: &mut View, b: &[u8]) -> bool {
    let mut vregs = None;
    let mut off = 0;
    for r in 0..NREGS {
        let n = reg_size(r);
        if write_reg(v, r, &b[off..off + n], &mut vregs).is_none() {
            return false;
        }
        off += n;
    }
    store_vregs(v, vregs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guest::{MemGuest, Perm};

    /// A stub and the gdb side of its connection.
    fn pair() -> (Stub, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let gdb = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (conn, _) = l.accept().unwrap();
        (Stub::over(conn), gdb)
    }

    fn packet(body: &str) -> Vec<u8> {
        let sum = body.bytes().fold(0u8, |a, b| a.wrapping_add(b));
        format!("${body}#{sum:02x}").into_bytes()
    }

    /// Reads gdb's side until `want` replies (acks skipped), returning their bodies.
    fn replies(gdb: &mut TcpStream, want: usize) -> Vec<String> {
        let mut got = Vec::new();
        let mut buf = Vec::new();
        while got.len() < want {
            let mut b = [0u8; 65536];
            let n = gdb.read(&mut b).unwrap();
            assert!(n > 0, "stub closed early");
            buf.extend_from_slice(&b[..n]);
            while let Some(start) = buf.iter().position(|&c| c == b'$') {
                let Some(h) = buf[start..].iter().position(|&c| c == b'#') else {
                    break;
                };
                if buf.len() < start + h + 3 {
                    break;
                }
                got.push(String::from_utf8_lossy(&buf[start + 1..start + h]).into_owned());
                buf.drain(..start + h + 3);
            }
        }
        got
    }

    /// Sends `script`'s packets, then lets the stub serve them for process `tid` of `g`.
    fn serve_script(
        stub: &mut Stub,
        gdb: &mut TcpStream,
        g: &mut MemGuest,
        tid: u32,
        maps: &str,
        script: &[&str],
    ) -> Action {
        for p in script {
            gdb.write_all(&packet(p)).unwrap();
        }
        let maps = |_: &dyn Guest| maps.to_string();
        let mut v = View {
            guest: g,
            slot: 0,
            tid,
            maps: &maps,
        };
        stub.serve(&mut v).unwrap()
    }

    #[test]
    fn registers_memory_breakpoints_and_resume() {
        let mut g = MemGuest::new(1, 1 << 20);
        g.map(0, 0x10000, 0x1000, Perm::RX, true).unwrap();
        g.write_mem(0, 0x10000, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        g.set_reg(0, 0, 0x1122_3344_5566_7788);
        g.set_reg(0, 31, 0x7ff0);
        g.set_pc(0, 0x10004);
        g.st_mut(0)[layout::S_NZCV] = 0b0110;
        let (mut stub, mut gdb) = pair();
        let script = [
            "qSupported:multiprocess+",
            "?",
            "g",
            "p20",
            "m10000,8",
            "Z0,10004,4",
            "m10000,8",
            "m0,4",
            "Pa=0100000000000000",
            "qXfer:features:read:target.xml:0,40",
            "P23=0102030405060708090a0b0c0d0e0f10",
            "p23",
            "p42",
            "c",
        ];
        let a = serve_script(&mut stub, &mut gdb, &mut g, 7, "", &script);
        assert_eq!(a, Action::Continue);
        let r = replies(&mut gdb, script.len() - 1);
        assert!(r[0].contains("qXfer:features:read+"), "{}", r[0]);
        assert!(r[0].contains("multiprocess+"), "{}", r[0]);
        assert_eq!(r[1], "T05thread:p7.7;");
        assert_eq!(r[2].len(), regs_len() * 2);
        assert!(r[2].starts_with("8877665544332211"), "x0 little-endian");
        assert_eq!(&r[2][33 * 16..33 * 16 + 8], "00000060", "cpsr: Z and C");
        assert_eq!(r[3], "0400010000000000", "pc");
        assert_eq!(r[4], "0102030405060708");
        assert_eq!(r[5], "OK");
        assert_eq!(
            r[6], "0102030405060708",
            "breakpoints read as the program's bytes"
        );
        assert_eq!(r[7], "E14", "unmapped");
        assert_eq!(r[8], "OK");
        assert!(r[9].starts_with("m<?xml"), "{}", r[9]);
        assert_eq!(r[10], "OK", "v1 written");
        assert_eq!(r[11], "0102030405060708090a0b0c0d0e0f10", "v1 read back");
        assert_eq!(r[12], "00000000", "fpcr");
        assert_eq!(g.vregs(0).unwrap()[1], 0x100f0e0d0c0b0a090807060504030201);
        assert_eq!(g.read_mem(0, 0x10004, 4).unwrap(), BRK0);
        assert_eq!(g.reg(0, 10), 1);
        assert!(stub.is_breakpoint(0x10004));
        // A stop at the breakpoint is told; removing it puts the bytes back.
        stub.pending = Some(StopWhy {
            signal: 5,
            breakpoint: true,
        });
        let script = ["z0,10004,4", "vCont;s:7"];
        let a = serve_script(&mut stub, &mut gdb, &mut g, 7, "", &script);
        assert_eq!(a, Action::Step);
        assert_eq!(replies(&mut gdb, 2), ["T05thread:p7.7;", "OK"]);
        assert_eq!(g.read_mem(0, 0x10004, 4).unwrap(), [5, 6, 7, 8]);
        stub.ended(3 << 8);
        assert_eq!(replies(&mut gdb, 1), ["W03;process:7"]);
        assert!(!stub.attached());
    }

    #[test]
    fn maps_through_vfile_and_kill() {
        let mut g = MemGuest::new(1, 1 << 20);
        let (mut stub, mut gdb) = pair();
        let path = hex(b"/proc/9/maps");
        let script = [
            "vFile:setfs:0".to_string(),
            format!("vFile:open:{path},0,0"),
            "vFile:pread:3,100,0".into(),
            "vFile:close:3".into(),
            format!("vFile:open:{},0,0", hex(b"/etc/passwd")),
            "k".into(),
        ];
        let script: Vec<&str> = script.iter().map(|s| s.as_str()).collect();
        let maps = "00400000-00401000 r-xp 00000000 00:00 0 /prog\n";
        let a = serve_script(&mut stub, &mut gdb, &mut g, 9, maps, &script);
        assert_eq!(a, Action::Kill);
        let r = replies(&mut gdb, 5);
        assert_eq!(r[0], "F0");
        assert_eq!(r[1], "F3");
        assert_eq!(r[2], "F2e;00400000-00401000 r-xp 00000000 00:00 0 /prog\n");
        assert_eq!(r[3], "F0");
        assert_eq!(r[4], "F-1,2");
    }
}
