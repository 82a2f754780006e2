//! A progress line for long runs, on a terminal only: instances finished, instructions retired
//! and MIPS, redrawn in place at most four times a second after the first second. Anything
//! else written to the terminal (guest output, garm's own messages) clears it first, so the
//! line never mixes with real output; when stderr is not a terminal nothing is written.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// Whether a progress line is on the terminal now.
static SHOWN: AtomicBool = AtomicBool::new(false);
/// Whether the last byte of output ended a line: the progress line is drawn only then, so it
/// never erases a prompt or any other unfinished line.
static AT_LINE_START: AtomicBool = AtomicBool::new(true);

/// Notes the last byte written to the terminal's stdout or stderr.
pub fn wrote(bytes: &[u8]) {
    if let Some(&b) = bytes.last() {
        AT_LINE_START.store(b == b'\n', Ordering::Relaxed);
    }
}

/// Erases the progress line, if one is shown, before other output takes the terminal.
pub fn clear_line() {
    if SHOWN.swap(false, Ordering::Relaxed) {
        let _ = std::io::stderr().write_all(b"\r\x1b[K");
    }
}

pub struct Progress {
    pub enabled: bool,
    start: Instant,
    last: Instant,
}

/// The first line waits this long, so short runs never show one.
const FIRST: Duration = Duration::from_secs(1);
const EVERY: Duration = Duration::from_millis(250);
/// Columns the line may take at most.
const WIDTH: usize = 79;

impl Progress {
    /// On when stderr is a terminal and `GARM_PROGRESS` is not `0` (`1` forces it on, for tests
    /// through a pipe).
    pub fn new() -> Progress {
        let env = std::env::var("GARM_PROGRESS").ok();
        let enabled = match env.as_deref() {
            Some("0") => false,
            Some("1") => true,
            _ => std::io::stderr().is_terminal(),
        };
        let now = Instant::now();
        Progress {
            enabled,
            start: now,
            last: now,
        }
    }

    /// Redraws the line if it is time: `done` of `total` instances finished, `insns` retired.
    pub fn tick(&mut self, done: usize, total: usize, insns: u64) {
        if !self.enabled
            || self.start.elapsed() < FIRST
            || self.last.elapsed() < EVERY
            || !AT_LINE_START.load(Ordering::Relaxed)
        {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64();
        let mut line = format!(
            "garm: {done}/{total} finished, {:.3e} instructions, {:.1} MIPS, {secs:.0} s",
            insns as f64,
            insns as f64 / secs / 1e6
        );
        // Narrower than any terminal: a wrapped line could not be erased with one \r.
        line.truncate(WIDTH);
        let line = format!("\r\x1b[K{line}");
        let mut e = std::io::stderr();
        if e.write_all(line.as_bytes()).is_ok() {
            let _ = e.flush();
            SHOWN.store(true, Ordering::Relaxed);
        }
    }
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        clear_line();
    }
}
