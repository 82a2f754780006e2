//! The compile cache: every compiled object and linked program, keyed by SHA-256 of everything
//! that shapes it, so a second build of the same sources runs neither clang nor ld.lld.
//!
//! An entry is one file, `objects/<key>`: a header, the dependency manifest (path and SHA-256 of
//! every header clang's `-MD` output named), then the payload with its length and SHA-256.
//! The key covers the source bytes and path, all flags (target included), the clang version and
//! the runtime's contents; the manifest covers the headers, checked on every hit, so an edited
//! header is a miss. Entries are written to a temporary file and renamed, and a corrupt or
//! truncated entry (bad header, length or digest) counts as a miss and is rebuilt.

use super::hex;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &str = "garm-cache-entry 1\n";
const LOG: &str = "cache-events.log";

/// SHA-256 of `data`, in hex.
pub fn sha(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// The cache under [`super::cache_dir`].
pub struct Cache {
    pub dir: PathBuf,
}

/// What a lookup found.
enum Found {
    Hit(Vec<u8>),
    Miss,
    Corrupt(String),
}

impl Cache {
    pub fn open() -> Cache {
        Cache {
            dir: super::cache_dir(),
        }
    }

    fn entry(&self, key: &str) -> PathBuf {
        self.dir.join("objects").join(key)
    }

    /// Appends one event (`hit compile`, `miss link`, ...) to the log `garm cache stats` reads.
    /// One short O_APPEND write per event, so concurrent processes do not tear lines.
    pub fn log(&self, event: &str) {
        let _ = std::fs::create_dir_all(&self.dir);
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(LOG))
        {
            let _ = f.write_all(format!("{event}\n").as_bytes());
        }
    }

    fn lookup(&self, key: &str) -> Found {
        let Ok(bytes) = std::fs::read(self.entry(key)) else {
            return Found::Miss;
        };
        match parse_entry(&bytes) {
            Err(e) => Found::Corrupt(e),
            Ok((deps, payload)) => {
                for (digest, path) in deps {
                    match std::fs::read(&path) {
                        Ok(d) if sha(&d) == digest => {}
                        _ => return Found::Miss,
                    }
                }
                Found::Hit(payload.to_vec())
            }
        }
    }

    /// The payload stored under `key` when it and every dependency it lists are intact.
    pub fn get(&self, kind: &str, key: &str) -> Option<Vec<u8>> {
        match self.lookup(key) {
            Found::Hit(p) => {
                self.log(&format!("hit {kind}"));
                Some(p)
            }
            Found::Miss => {
                self.log(&format!("miss {kind}"));
                None
            }
            Found::Corrupt(why) => {
                crate::elog!("garm: cache entry {key} is corrupt ({why}); rebuilding it");
                self.log(&format!("corrupt {kind}"));
                None
            }
        }
    }

    /// Stores `payload` under `key` with its dependencies (path, contents digest), atomically.
    pub fn put(
        &self,
        key: &str,
        deps: &[(String, PathBuf)],
        payload: &[u8],
    ) -> std::io::Result<()> {
        let mut e = Vec::with_capacity(payload.len() + 256);
        e.extend_from_slice(MAGIC.as_bytes());
        for (digest, path) in deps {
            let p = path.to_string_lossy();
            if p.contains('\n') {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("cannot cache a dependency with a newline in its path: {p:?}"),
                ));
            }
            e.extend_from_slice(format!("dep {digest} {p}\n").as_bytes());
        }
        e.extend_from_slice(format!("data {} {}\n", payload.len(), sha(payload)).as_bytes());
        e.extend_from_slice(payload);
        write_atomic(&self.entry(key), &e)
    }

    /// Entry count and bytes, and the event counts since the last `clear` or `zero`.
    pub fn stats(&self) -> String {
        let mut n = 0u64;
        let mut bytes = 0u64;
        if let Ok(rd) = std::fs::read_dir(self.dir.join("objects")) {
            for e in rd.flatten() {
                if let Ok(m) = e.metadata() {
                    if m.is_file() {
                        n += 1;
                        bytes += m.len();
                    }
                }
            }
        }
        let runtimes = std::fs::read_dir(&self.dir)
            .map(|rd| {
                rd.flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with("runtime-"))
                    .count()
            })
            .unwrap_or(0);
        let log = std::fs::read_to_string(self.dir.join(LOG)).unwrap_or_default();
        let count = |ev: &str| log.lines().filter(|l| *l == ev).count();
        let mut s = format!(
            "cache: {}\nentries: {n} ({:.1} KiB), runtimes built: {runtimes}\n",
            self.dir.display(),
            bytes as f64 / 1024.0
        );
        for kind in ["compile", "link"] {
            s += &format!(
                "{kind}: {} hits, {} misses, {} corrupt entries rebuilt\n",
                count(&format!("hit {kind}")),
                count(&format!("miss {kind}")),
                count(&format!("corrupt {kind}"))
            );
        }
        s
    }

    /// Forgets the event counts (entries stay).
    pub fn zero(&self) -> std::io::Result<()> {
        match std::fs::remove_file(self.dir.join(LOG)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Removes every entry, the built runtimes and the counts.
    pub fn clear(&self) -> std::io::Result<()> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Ok(());
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name == "objects" || name.starts_with("runtime-") || name.starts_with(".runtime-tmp")
            {
                std::fs::remove_dir_all(e.path())?;
            }
        }
        self.zero()
    }
}

/// (SHA-256 hex, path) of each dependency of an entry.
type Deps = Vec<(String, PathBuf)>;

/// Splits an entry into its dependency list and payload, checking every length and digest.
fn parse_entry(b: &[u8]) -> Result<(Deps, &[u8]), String> {
    let mut rest = b.strip_prefix(MAGIC.as_bytes()).ok_or("bad header")?;
    let mut deps = Vec::new();
    loop {
        let nl = rest
            .iter()
            .position(|&c| c == b'\n')
            .ok_or("truncated manifest")?;
        let line = std::str::from_utf8(&rest[..nl]).map_err(|_| "manifest is not UTF-8")?;
        rest = &rest[nl + 1..];
        if let Some(d) = line.strip_prefix("dep ") {
            let (digest, path) = d.split_once(' ').ok_or("bad dep line")?;
            deps.push((digest.to_string(), PathBuf::from(path)));
        } else if let Some(d) = line.strip_prefix("data ") {
            let (len, digest) = d.split_once(' ').ok_or("bad data line")?;
            let len: usize = len.parse().map_err(|_| "bad length")?;
            if rest.len() != len {
                return Err(format!("payload is {} bytes, expected {len}", rest.len()));
            }
            if sha(rest) != digest {
                return Err("payload digest mismatch".into());
            }
            return Ok((deps, rest));
        } else {
            return Err(format!("unexpected manifest line {line:?}"));
        }
    }
}

/// Writes `data` to a temporary file beside `path`, then renames it into place.
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "no parent directory")
    })?;
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".tmp-{}-{:?}-{}",
        std::process::id(),
        std::thread::current().id(),
        path.file_name().unwrap_or_default().to_string_lossy()
    ));
    let r = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_data()?;
        std::fs::rename(&tmp, path)
    })();
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// Parses a make-style dependency file (`clang -MD`): the prerequisites of its one rule.
pub fn parse_depfile(text: &str) -> Vec<PathBuf> {
    let joined = text.replace("\\\n", " ");
    let Some((_, prereqs)) = joined.split_once(": ") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = prereqs.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                cur.push(' ');
                chars.next();
            }
            ' ' | '\n' | '\t' | '\r' => {
                if !cur.is_empty() {
                    out.push(PathBuf::from(std::mem::take(&mut cur)));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(PathBuf::from(cur));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_round_trip_and_corruption() {
        let dir = std::env::temp_dir().join(format!("garm-cache-unit-{}", std::process::id()));
        let c = Cache { dir: dir.clone() };
        let dep = dir.join("h.h");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&dep, b"int x;").unwrap();
        let deps = vec![(sha(b"int x;"), dep.clone())];
        c.put("k", &deps, b"payload").unwrap();
        assert_eq!(c.get("t", "k").as_deref(), Some(&b"payload"[..]));
        // An edited header is a miss.
        std::fs::write(&dep, b"int y;").unwrap();
        assert!(c.get("t", "k").is_none());
        std::fs::write(&dep, b"int x;").unwrap();
        // Truncation and a flipped payload byte are detected.
        let path = c.entry("k");
        let full = std::fs::read(&path).unwrap();
        std::fs::write(&path, &full[..full.len() - 2]).unwrap();
        assert!(matches!(c.lookup("k"), Found::Corrupt(_)));
        let mut bad = full.clone();
        *bad.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(c.lookup("k"), Found::Corrupt(_)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn depfile() {
        let d = "x.o: /a/x.c /a/b\\ c.h \\\n  /usr/inc/stdio.h\n";
        assert_eq!(
            parse_depfile(d),
            vec![
                PathBuf::from("/a/x.c"),
                PathBuf::from("/a/b c.h"),
                PathBuf::from("/usr/inc/stdio.h")
            ]
        );
    }
}
