//! The guest toolchain: finds clang and ld.lld, builds the embedded guest runtime once per
//! (runtime, flags, compiler) into the cache, and compiles C programs into static AArch64 ELFs.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

include!(concat!(env!("OUT_DIR"), "/runtime_files.rs"));

/// Flags for every guest C file (see guest/build.sh).
pub const CFLAGS: &[&str] = &[
    "--target=aarch64-none-elf",
    "-ffreestanding",
    "-nostdlib",
    "-O2",
    "-mgeneral-regs-only",
    "-ffunction-sections",
    "-fdata-sections",
    "-fno-asynchronous-unwind-tables",
    "-fno-unwind-tables",
    "-fsigned-char",
    "-ffp-contract=off",
];
pub const LDFLAGS: &[&str] = &["-static", "-z", "max-page-size=4096", "--gc-sections"];

/// Lowercase hex of a SHA-256 digest.
pub fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where garm keeps its caches: `$XDG_CACHE_HOME/garm`, else `~/.cache/garm`.
pub fn cache_dir() -> PathBuf {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return PathBuf::from(x).join("garm");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| "/tmp".into());
    PathBuf::from(home).join(".cache").join("garm")
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn find(names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|n| on_path(n))
}

/// The located compiler and linker.
pub struct Toolchain {
    pub clang: PathBuf,
    pub lld: PathBuf,
    pub clang_version: String,
}

impl Toolchain {
    /// Finds clang and ld.lld on PATH, or says which is missing and how to get it.
    pub fn find() -> Result<Toolchain, String> {
        let clang = find(&["clang", "clang-19", "clang-18", "clang-17", "clang-16", "clang-15", "clang-14"])
            .ok_or("clang not found on PATH: garm needs clang to build guest programs (Debian: apt-get install clang lld)")?;
        let lld = find(&["ld.lld", "ld.lld-19", "ld.lld-18", "ld.lld-17", "ld.lld-16", "ld.lld-15", "ld.lld-14"])
            .ok_or("ld.lld not found on PATH: garm needs lld to link guest programs (Debian: apt-get install lld)")?;
        let out = Command::new(&clang)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
        let clang_version = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        Ok(Toolchain {
            clang,
            lld,
            clang_version,
        })
    }

    fn run(&self, cmd: &mut Command, what: &str) -> Result<(), String> {
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {what}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{what} failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(())
    }

    /// Key of everything that shapes the runtime objects.
    fn runtime_key(&self) -> String {
        let mut h = Sha256::new();
        for (name, data) in RUNTIME_FILES {
            h.update(name.as_bytes());
            h.update((data.len() as u64).to_le_bytes());
            h.update(data);
        }
        h.update(CFLAGS.join(" ").as_bytes());
        h.update(self.clang_version.as_bytes());
        hex(&h.finalize())[..24].to_string()
    }

    /// Builds the runtime into the cache once; returns its directory.
    pub fn runtime(&self) -> Result<PathBuf, String> {
        let dir = cache_dir().join(format!("runtime-{}", self.runtime_key()));
        if dir.join("done").is_file() {
            return Ok(dir);
        }
        let parent = cache_dir();
        std::fs::create_dir_all(&parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        let tmp = parent.join(format!(
            ".runtime-tmp-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&tmp);
        for (name, data) in RUNTIME_FILES {
            let p = tmp.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
            std::fs::write(&p, data).map_err(|e| e.to_string())?;
        }
        let inc = tmp.join("guest/include");
        let objdir = tmp.join("obj");
        std::fs::create_dir_all(&objdir).map_err(|e| e.to_string())?;
        for (name, _) in RUNTIME_FILES {
            let p = Path::new(name);
            if !name.starts_with("guest/rt/") {
                continue;
            }
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ext != "c" && ext != "S" {
                continue;
            }
            let obj = objdir.join(format!("{}.o", p.file_name().unwrap().to_string_lossy()));
            let mut cmd = Command::new(&self.clang);
            cmd.args(CFLAGS)
                .arg("-I")
                .arg(&inc)
                .arg("-c")
                .arg(tmp.join(name))
                .arg("-o")
                .arg(&obj);
            self.run(&mut cmd, &format!("clang (runtime {name})"))?;
        }
        std::fs::write(tmp.join("done"), b"").map_err(|e| e.to_string())?;
        // Another process may have won the race; either copy is complete, so keep theirs.
        if std::fs::rename(&tmp, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
            if !dir.join("done").is_file() {
                return Err(format!("cannot install the runtime into {}", dir.display()));
            }
        }
        Ok(dir)
    }

    /// Compiles and links C sources with the runtime into a static AArch64 ELF at `out`.
    pub fn build(
        &self,
        sources: &[PathBuf],
        out: &Path,
        extra: &[String],
    ) -> Result<Duration, String> {
        let t0 = Instant::now();
        let rt = self.runtime()?;
        let work = std::env::temp_dir().join(format!(
            "garm-cc-{}-{:?}-{}",
            std::process::id(),
            std::thread::current().id(),
            t0.elapsed().as_nanos()
        ));
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        let result = (|| {
            let mut objs = Vec::new();
            for (i, src) in sources.iter().enumerate() {
                if !src.is_file() {
                    return Err(format!("{}: no such file", src.display()));
                }
                let obj = work.join(format!("{i}.o"));
                let mut cmd = Command::new(&self.clang);
                cmd.args(CFLAGS)
                    .args(extra)
                    .arg("-I")
                    .arg(rt.join("guest/include"))
                    .arg("-c")
                    .arg(src)
                    .arg("-o")
                    .arg(&obj);
                self.run(&mut cmd, &format!("clang {}", src.display()))?;
                objs.push(obj);
            }
            let mut rt_objs: Vec<PathBuf> = std::fs::read_dir(rt.join("obj"))
                .map_err(|e| e.to_string())?
                .flatten()
                .map(|e| e.path())
                .collect();
            rt_objs.sort();
            let mut cmd = Command::new(&self.lld);
            cmd.arg("-T")
                .arg(rt.join("linker/garm.ld"))
                .args(LDFLAGS)
                .args(&rt_objs)
                .args(&objs)
                .arg("-o")
                .arg(out);
            self.run(&mut cmd, "ld.lld")
        })();
        let _ = std::fs::remove_dir_all(&work);
        result.map(|_| t0.elapsed())
    }
}
