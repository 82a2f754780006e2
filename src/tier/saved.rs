//! Plans saved across runs: the regions a run of a program ended with, kept in the compile
//! cache under the digest of the program's bytes, the translator's version, the prelude and the
//! adapter (a plan is compiled for one driver), so the next run of the same program translates
//! them from its first dispatch (and Mesa's shader cache has their machine code). A plan only
//! names address ranges: each is translated from the bytes the guest holds then, so a stale or
//! damaged plan costs a compile, never a wrong result. A plan whose pipeline the run saw
//! compiled (swapped in) is installed before the first dispatch (Mesa's cache has it: a fraction
//! of a second); one still compiling when its run ended goes to the worker, as the run's exit
//! does not wait for a compile.

use crate::toolchain::cache::{sha, Cache};

const KIND: &str = "tier-plan";

/// The cache key of the plan for the program whose SHA-256 is `elf_sha`, under `target` (the
/// prelude and the adapter).
pub fn key(elf_sha: &str, target: &str) -> String {
    sha(format!(
        "garm tier plan {} {target} {elf_sha}",
        super::translate::VERSION
    )
    .as_bytes())
}

/// A saved plan: the regions' address ranges, whether their pipeline was compiled, and the
/// regions runs of this program dropped as unprofitable (a later run treats them as dropped
/// once: picked again only as the caller of a chosen region).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub ranges: Vec<(u64, u64)>,
    pub compiled: bool,
    pub dropped: Vec<(u64, u64)>,
}

/// Dropped regions a plan remembers at most.
pub const MAX_DROPPED: usize = 16;

/// The plan saved under `key` (empty where there is none or it does not parse).
pub fn load(key: &str) -> Plan {
    Cache::open()
        .get(KIND, key)
        .map(|p| parse(&String::from_utf8_lossy(&p)))
        .unwrap_or_default()
}

/// Saves `plan` under `key` (best effort: a run never fails for its cache).
pub fn store(key: &str, plan: &Plan) {
    let _ = Cache::open().put(key, &[], format(plan).as_bytes());
}

fn format(plan: &Plan) -> String {
    let head = if plan.compiled {
        "compiled\n"
    } else {
        "pending\n"
    };
    let ranges: String = plan
        .ranges
        .iter()
        .map(|(a, b)| format!("{a:x} {b:x}\n"))
        .collect();
    let dropped: String = plan
        .dropped
        .iter()
        .map(|(a, b)| format!("dropped {a:x} {b:x}\n"))
        .collect();
    format!("{head}{ranges}{dropped}")
}

/// `compiled` or `pending`, then one `START END` (hex) per line: a region of at most a page,
/// start before end; then `dropped START END` lines; anything else and the whole plan is
/// ignored.
fn parse(text: &str) -> Plan {
    let mut lines = text.lines();
    let compiled = match lines.next() {
        Some("compiled") => true,
        Some("pending") => false,
        _ => return Plan::default(),
    };
    let mut ranges = Vec::new();
    let mut dropped = Vec::new();
    for line in lines {
        let (list, line) = match line.strip_prefix("dropped ") {
            Some(rest) => (&mut dropped, rest),
            None if dropped.is_empty() => (&mut ranges, line),
            None => return Plan::default(),
        };
        let mut it = line.split(' ').map(|x| u64::from_str_radix(x, 16).ok());
        match (it.next().flatten(), it.next().flatten(), it.next()) {
            (Some(a), Some(b), None) if a < b && b - a <= 4096 && a & 3 == 0 && b & 3 == 0 => {
                list.push((a, b))
            }
            _ => return Plan::default(),
        }
    }
    ranges.truncate(super::MAX_REGIONS);
    dropped.truncate(MAX_DROPPED);
    Plan {
        ranges,
        compiled,
        dropped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_reads_back_and_a_damaged_one_is_ignored() {
        let p = Plan {
            ranges: vec![(0x13dec, 0x14000), (0x14000, 0x14054)],
            compiled: true,
            dropped: vec![(0x13c64, 0x13c9c)],
        };
        assert_eq!(parse(&format(&p)), p);
        let q = Plan {
            compiled: false,
            ..p
        };
        assert_eq!(parse(&format(&q)), q);
        let none = Plan::default();
        assert_eq!(parse("13dec 14000\n"), none, "no header");
        assert_eq!(parse("compiled\n13dec 14000\nzz 1\n"), none);
        assert_eq!(parse("compiled\n14000 13dec\n"), none, "end before start");
        assert_eq!(parse("compiled\n10000 20000\n"), none, "more than a page");
        assert_eq!(parse("compiled\n10001 10010\n"), none, "misaligned");
        assert_eq!(
            parse("compiled\ndropped 13c64 13c9c\n13dec 14000\n"),
            none,
            "a range after the dropped ones"
        );
        assert_ne!(key("e1f", "u64"), key("e1f", "vec2"));
        assert_ne!(key("e1f", "u64"), key("e1e", "u64"));
    }
}
