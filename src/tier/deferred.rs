//! Compiles that outlive their run. A run never waits for a compile, so a program whose hot set
//! compiles for longer than it runs (sha256 at 128 KiB, one instance: ~1.8 s of lavapipe
//! compile for a 1.7 s run) exits mid-compile, its plan stays pending, and every later run
//! starts the same compile and exits before it lands. At exit the command line hands that
//! compile to a detached `garm tier-compile JOB` process, which builds the same shader text
//! (Mesa's disk cache then holds its machine code) and marks the plan compiled: the next run
//! installs it before its first dispatch. Bounded: one process per shader, two at once, ten
//! minutes each, at low priority; best effort throughout (a lost job costs a compile, never a
//! result). A running worker's warm-up is such a process too, started at once and waited for
//! ([`warm_detached`]): a run that exits before it ends leaves it to finish as above.

use crate::tier::saved::{self, Plan};
use std::path::Path;
#[cfg(unix)]
use std::path::PathBuf;
use std::sync::Mutex;

/// What the detached process needs: the adapter the run used, the complete shader and how its
/// pipeline was built, and the plan it belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Job {
    /// The adapter's name and backend (`Debug` name), as the run's device had them.
    pub adapter: String,
    pub backend: String,
    pub int64: bool,
    /// Bindings of the frame pool, and naga's runtime checks (`--checked`).
    pub pool: u32,
    pub checked: bool,
    /// The set's page cache and address ranges, as its plan names them.
    pub page_cache: bool,
    pub ranges: Vec<(u64, u64)>,
    /// The plan's keys (this instance count's, any count's).
    pub keys: Vec<String>,
    pub src: String,
}

const HEADER: &str = "garm tier job 1";

#[cfg(unix)]
/// Jobs running at once, at most (each is an LLVM compile of a core's worth).
const AT_ONCE: usize = 2;

#[cfg(unix)]
/// A job's time limit, and the age after which its file is taken as abandoned.
const LIMIT_S: u32 = 600;

impl Job {
    pub fn format(&self) -> String {
        let mut s = format!(
            "{HEADER}\nadapter {}\nbackend {}\nint64 {}\npool {}\nchecked {}\npage-cache {}\n",
            self.adapter,
            self.backend,
            u8::from(self.int64),
            self.pool,
            u8::from(self.checked),
            u8::from(self.page_cache)
        );
        for k in &self.keys {
            s += &format!("key {k}\n");
        }
        for (a, b) in &self.ranges {
            s += &format!("range {a:x} {b:x}\n");
        }
        s + "source\n" + &self.src
    }

    /// The job in `text` (None where it is not one: a truncated or foreign file).
    pub fn parse(text: &str) -> Option<Job> {
        let (head, src) = text.split_once("\nsource\n")?;
        let mut lines = head.lines();
        if lines.next()? != HEADER {
            return None;
        }
        let mut j = Job {
            src: src.to_string(),
            ..Default::default()
        };
        let flag = |v: &str| match v {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        for l in lines {
            let (k, v) = l.split_once(' ')?;
            match k {
                "adapter" => j.adapter = v.to_string(),
                "backend" => j.backend = v.to_string(),
                "int64" => j.int64 = flag(v)?,
                "pool" => j.pool = v.parse().ok()?,
                "checked" => j.checked = flag(v)?,
                "page-cache" => j.page_cache = flag(v)?,
                "key" => j.keys.push(v.to_string()),
                "range" => {
                    let (a, b) = v.split_once(' ')?;
                    let hex = |x: &str| u64::from_str_radix(x, 16).ok();
                    j.ranges.push((hex(a)?, hex(b)?));
                }
                _ => return None,
            }
        }
        (j.pool > 0 && !j.keys.is_empty() && !j.ranges.is_empty()).then_some(j)
    }

    /// Marks the plans this job compiled, where they still name its set as pending (a later
    /// run may have saved another).
    pub fn mark_compiled(&self) -> usize {
        let mut n = 0;
        for key in &self.keys {
            let p = saved::load(key);
            if !p.compiled && p.ranges == self.ranges {
                saved::store(
                    key,
                    &Plan {
                        compiled: true,
                        fallback: Vec::new(),
                        page_cache: self.page_cache,
                        ..p
                    },
                );
                n += 1;
            }
        }
        n
    }
}

/// The job the last run left compiling, for the command line's exit.
static DEFERRED: Mutex<Option<Job>> = Mutex::new(None);

/// Sets (or clears) the compile the running program would leave unfinished.
pub fn defer(job: Option<Job>) {
    *DEFERRED.lock().unwrap_or_else(|e| e.into_inner()) = job;
}

/// A worker finished compiling `src` after its run ended, in a process that went on: where it
/// is the compile that run deferred, its plans are marked compiled.
pub fn orphaned(src: &str) {
    let mut slot = DEFERRED.lock().unwrap_or_else(|e| e.into_inner());
    if slot.as_ref().is_some_and(|j| j.src == src) {
        if let Some(job) = slot.take() {
            let n = job.mark_compiled();
            if super::debug() {
                eprintln!(
                    "garm: tier: a compile finished after its run ({n} plans marked compiled)"
                );
            }
        }
    }
}

#[cfg(unix)]
fn jobs_dir() -> PathBuf {
    crate::toolchain::cache_dir().join("tier-jobs")
}

/// Starts the deferred compile in a detached process (the command line's exit: a run that ended
/// with its set compiling). Nothing happens where the same shader is compiling already, or two jobs are.
#[cfg(unix)]
pub fn spawn_deferred() {
    let Some(job) = DEFERRED.lock().unwrap_or_else(|e| e.into_inner()).take() else {
        return;
    };
    if spawn(&job, true).is_some() && super::debug() {
        eprintln!(
            "garm: tier: the compile of {} regions goes on after the run",
            job.ranges.len()
        );
    }
}

/// Whether Mesa keeps compiled shaders on disk, where a `tier-compile` process's compile
/// serves this process's pipeline.
#[cfg(unix)]
fn disk_cache() -> bool {
    let off = |k: &str| {
        std::env::var(k)
            .is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
    };
    !off("MESA_SHADER_CACHE_DISABLE") && !off("MESA_GLSL_CACHE_DISABLE")
}

/// A worker's warm-up in a `tier-compile` process of its own, waited for: the driver's compile
/// lands in Mesa's disk cache and this process's first dispatch loads it. In this process the
/// compile held the LLVM lock (two compiles at once crashed Mesa's LLVM 15), and an interpreter
/// variant's first dispatch waited behind it: gawk, 1.2 M instructions, sat 9.5 s behind a
/// warm-up, 3.2-3.7 s interpreted against 4.6-8.2 s in auto mode. True where the process
/// compiled the shader (its job's plans, the run's, are marked compiled where they name its set
/// by then: a run that ends first hands nothing more on, its compile being this one).
#[cfg(unix)]
pub fn warm_detached(job: &Job) -> bool {
    if !disk_cache() {
        return false;
    }
    if let Some(mut c) = spawn(job, false) {
        return c.wait().is_ok_and(|s| s.success());
    }
    // The same compile runs already (the exit of the program's last run handed it on): its end
    // is this warm-up's. Compiling in-process instead held the LLVM lock for 4.9 s of a lua
    // run, its interpreter waiting behind it (2.6 s runs took 7.0).
    let path = job_path(job);
    let t0 = std::time::Instant::now();
    let mut waited = false;
    while path.exists() && t0.elapsed().as_secs() < LIMIT_S as u64 {
        waited = true;
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    waited
}

#[cfg(not(unix))]
pub fn warm_detached(_: &Job) -> bool {
    false
}

/// Where `job` waits while its process runs: one file per plan keys and shader text.
#[cfg(unix)]
fn job_path(job: &Job) -> PathBuf {
    jobs_dir().join(crate::toolchain::cache::sha(
        format!("{:?} {}", job.keys, job.src).as_bytes(),
    ))
}

/// `job` in a detached `garm tier-compile` process, below the foreground's priority where
/// `low` (a run's warm-up keeps its worker's: at 64 instances the guests' threads take both
/// cores); `None` where the same shader is compiling already, two jobs are (for a `low` one:
/// warm-ups are not limited), or the process cannot start.
#[cfg(unix)]
fn spawn(job: &Job, low: bool) -> Option<std::process::Child> {
    use std::os::unix::process::CommandExt;
    let dir = jobs_dir();
    std::fs::create_dir_all(&dir).ok()?;
    let mut running = 0;
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let age = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .map_or(0, |d| d.as_secs());
        if age > LIMIT_S as u64 {
            let _ = std::fs::remove_file(e.path());
        } else {
            running += 1;
        }
    }
    // (A warm-up is a live run's compile, made here rather than in-process: not limited.)
    if running >= AT_ONCE && low {
        return None;
    }
    let path = job_path(job);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .ok()?;
    use std::io::Write;
    if f.write_all(job.format().as_bytes()).is_err() {
        let _ = std::fs::remove_file(&path);
        return None;
    }
    drop(f);
    let Ok(exe) = std::env::current_exe() else {
        let _ = std::fs::remove_file(&path);
        return None;
    };
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("tier-compile")
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(if super::debug() {
            std::process::Stdio::inherit()
        } else {
            std::process::Stdio::null()
        });
    // SAFETY: setsid, nice and alarm are async-signal-safe; the child then execs.
    unsafe {
        cmd.pre_exec(move || {
            // Its own session (a terminal's ^C for the run is not for it), and killed by
            // SIGALRM at its time limit.
            libc::setsid();
            if low {
                libc::nice(10);
            }
            libc::alarm(LIMIT_S);
            Ok(())
        });
    }
    match cmd.spawn() {
        Ok(c) => Some(c),
        Err(_) => {
            let _ = std::fs::remove_file(&path);
            None
        }
    }
}

#[cfg(not(unix))]
pub fn spawn_deferred() {}

/// Runs the job in `path` (the `tier-compile` command): `compile` builds its shader; on success
/// the plans are marked compiled. The job's file stays while it runs (spawners count them) and
/// goes in any case.
pub fn run_job(
    path: &Path,
    compile: impl FnOnce(&Job) -> Result<(), String>,
) -> Result<(), String> {
    let r = (|| {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let job = Job::parse(&text).ok_or_else(|| format!("{}: not a tier job", path.display()))?;
        let t0 = std::time::Instant::now();
        compile(&job)?;
        let n = job.mark_compiled();
        if super::debug() {
            eprintln!(
                "garm: tier: compiled {} regions in a process of their own in {:.2} s ({n} plans marked compiled)",
                job.ranges.len(),
                t0.elapsed().as_secs_f64()
            );
        }
        Ok(())
    })();
    let _ = std::fs::remove_file(path);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_reads_back_as_written_and_damage_is_no_job() {
        let j = Job {
            adapter: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
            backend: "Vulkan".into(),
            int64: true,
            pool: 1,
            checked: false,
            page_cache: true,
            ranges: vec![(0x13e7c, 0x13f24), (0x140ec, 0x14128)],
            keys: vec!["ab".into(), "cd".into()],
            src: "fn main() {}\nsource\n".into(),
        };
        assert_eq!(Job::parse(&j.format()), Some(j.clone()));
        let text = j.format();
        assert_eq!(Job::parse(&text[..20]), None);
        assert_eq!(Job::parse(&text.replace("int64 1", "int64 x")), None);
        assert_eq!(Job::parse(&text.replace("tier job 1", "tier job 9")), None);
        assert_eq!(
            Job::parse(&text.replace("range 140ec 14128\n", "range 140ec\n")),
            None
        );
    }
}
