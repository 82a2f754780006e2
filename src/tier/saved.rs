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
/// prelude and the adapter). (Format 2 added `page-cache`: a plan without it was compiled
/// with either; format 3 the accesses taken at any alignment.)
pub fn key(elf_sha: &str, target: &str) -> String {
    sha(format!(
        "garm tier plan 3 {} {target} {elf_sha}",
        super::translate::VERSION
    )
    .as_bytes())
}

/// A saved plan: the regions' address ranges, whether their pipeline was compiled, and the
/// regions runs of this program dropped as unprofitable (a later run treats them as dropped
/// once: picked again only as the caller of a chosen region). A plan still compiling when its
/// run ended keeps the last compiled set as its `fallback`: the next run runs that at once
/// while the worker compiles the new set (a pick late in a run, from its closing phase, would
/// otherwise leave the next run interpreted for a whole cold compile).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub ranges: Vec<(u64, u64)>,
    pub compiled: bool,
    pub dropped: Vec<(u64, u64)>,
    pub fallback: Vec<(u64, u64)>,
    /// The page cache the compiled set's pipeline had (`page-cache` after the header): the
    /// same again makes it Mesa's cache's, whatever the instance count.
    pub page_cache: bool,
    /// The accesses `ranges` takes at any alignment (pcs; [`crate::tier::translate::Source`]),
    /// and those `fallback` takes: each set's own, so each makes the shader text Mesa's cache
    /// holds.
    pub sites: Vec<u64>,
    pub fallback_sites: Vec<u64>,
}

impl Plan {
    /// The plan less the regions a run dropped (`gone`). A run that only learnt drops kept
    /// its set whole: gawk's saved set of five regions, each dropped for bouncing at every
    /// run, was installed before every run's first dispatch (0.85-1.14 s) and dropped again.
    /// (Not every region the plan names as dropped: one dropped once is picked again with its
    /// callee, and sha256's set then never ran compiled.) A set that loses regions is a new
    /// shader text, compiled on the worker while the compiled one it was falls back; a set
    /// that loses all has no fallback either.
    pub fn without(mut self, gone: &[(u64, u64)]) -> Plan {
        if !self.ranges.iter().any(|r| gone.contains(r)) {
            return self;
        }
        if self.compiled {
            self.fallback = self.ranges.clone();
            self.fallback_sites = self.sites.clone();
            self.compiled = false;
        }
        self.ranges.retain(|r| !gone.contains(r));
        if self.ranges.is_empty() {
            self.fallback.clear();
            self.fallback_sites.clear();
        }
        self
    }

    /// The set whose pipeline was compiled last (in Mesa's cache): what a later plan falls
    /// back on while its own compiles.
    pub fn compiled_set(&self) -> &[(u64, u64)] {
        if self.compiled {
            &self.ranges
        } else {
            &self.fallback
        }
    }

    /// The accesses [`Plan::compiled_set`] takes at any alignment.
    pub fn compiled_sites(&self) -> &[u64] {
        if self.compiled {
            &self.sites
        } else {
            &self.fallback_sites
        }
    }
}

/// Dropped regions a plan remembers at most.
pub const MAX_DROPPED: usize = 16;
/// Loads taken at any alignment a plan names at most (per set).
const MAX_SITES: usize = 256;

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
    let head = match (plan.compiled, plan.page_cache) {
        (true, false) => "compiled\n",
        (true, true) => "compiled\npage-cache\n",
        (false, false) => "pending\n",
        (false, true) => "pending\npage-cache\n",
    };
    let ranges: String = plan
        .ranges
        .iter()
        .map(|(a, b)| format!("{a:x} {b:x}\n"))
        .collect();
    let tagged = |tag: &str, list: &[(u64, u64)]| -> String {
        list.iter()
            .map(|(a, b)| format!("{tag} {a:x} {b:x}\n"))
            .collect()
    };
    let fallback = tagged("fallback", &plan.fallback);
    let dropped = tagged("dropped", &plan.dropped);
    let pcs = |tag: &str, list: &[u64]| -> String {
        list.iter().map(|pc| format!("{tag} {pc:x}\n")).collect()
    };
    let sites = pcs("site", &plan.sites);
    let fallback_sites = pcs("fallback-site", &plan.fallback_sites);
    format!("{head}{ranges}{fallback}{dropped}{sites}{fallback_sites}")
}

/// `compiled` or `pending`, then `page-cache` where the compiled set had it, then one
/// `START END` (hex) per line: a region of at most a page,
/// start before end; then `fallback START END` lines, then `dropped START END` lines, then
/// `site PC` and `fallback-site PC` lines (a word-aligned pc); anything else and the whole plan
/// is ignored.
fn parse(text: &str) -> Plan {
    let mut lines = text.lines().peekable();
    let compiled = match lines.next() {
        Some("compiled") => true,
        Some("pending") => false,
        _ => return Plan::default(),
    };
    let page_cache = lines.next_if_eq(&"page-cache").is_some();
    // The lists in their order: a line of an earlier one after a later one spoils the plan.
    let mut lists: [Vec<(u64, u64)>; 3] = Default::default();
    let mut pcs: [Vec<u64>; 2] = Default::default();
    let mut at = 0;
    for line in lines {
        let site = if let Some(rest) = line.strip_prefix("site ") {
            Some((3, rest))
        } else {
            line.strip_prefix("fallback-site ").map(|rest| (4, rest))
        };
        if let Some((k, pc)) = site {
            if k < at {
                return Plan::default();
            }
            at = k;
            match u64::from_str_radix(pc, 16) {
                Ok(pc) if pc & 3 == 0 => pcs[k - 3].push(pc),
                _ => return Plan::default(),
            }
            continue;
        }
        let (k, line) = if let Some(rest) = line.strip_prefix("fallback ") {
            (1, rest)
        } else if let Some(rest) = line.strip_prefix("dropped ") {
            (2, rest)
        } else {
            (0, line)
        };
        if k < at {
            return Plan::default();
        }
        at = k;
        let list = &mut lists[k];
        let mut it = line.split(' ').map(|x| u64::from_str_radix(x, 16).ok());
        match (it.next().flatten(), it.next().flatten(), it.next()) {
            (Some(a), Some(b), None) if a < b && b - a <= 4096 && a & 3 == 0 && b & 3 == 0 => {
                list.push((a, b))
            }
            _ => return Plan::default(),
        }
    }
    let [mut ranges, mut fallback, mut dropped] = lists;
    let [mut sites, mut fallback_sites] = pcs;
    for list in [&mut sites, &mut fallback_sites] {
        list.sort_unstable();
        list.dedup();
        list.truncate(MAX_SITES);
    }
    ranges.truncate(super::MAX_REGIONS);
    fallback.truncate(super::MAX_REGIONS);
    dropped.truncate(MAX_DROPPED);
    Plan {
        ranges,
        compiled,
        dropped,
        fallback,
        page_cache,
        sites,
        fallback_sites,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_sheds_the_regions_a_run_dropped() {
        let p = Plan {
            ranges: vec![(0x100, 0x200), (0x300, 0x400)],
            compiled: true,
            dropped: vec![(0x300, 0x400), (0x500, 0x600)],
            fallback: Vec::new(),
            page_cache: true,
            sites: vec![0x104],
            fallback_sites: Vec::new(),
        };
        // The rest is a set to compile; the compiled set it was runs meanwhile.
        let q = p.clone().without(&[(0x300, 0x400)]);
        assert_eq!(q.ranges, vec![(0x100, 0x200)]);
        assert!(!q.compiled);
        assert_eq!(
            (q.fallback, q.fallback_sites),
            (p.ranges.clone(), p.sites.clone())
        );
        assert_eq!(q.dropped, p.dropped);
        // Dropped by an earlier run only (picked again with its callee): kept.
        assert_eq!(p.clone().without(&[(0x500, 0x600)]), p);
        // All gone: no set, no fallback.
        let none = p.clone().without(&p.ranges);
        assert!(none.ranges.is_empty() && none.fallback.is_empty());
    }

    #[test]
    fn a_plan_reads_back_and_a_damaged_one_is_ignored() {
        let p = Plan {
            ranges: vec![(0x13dec, 0x14000), (0x14000, 0x14054)],
            compiled: true,
            dropped: vec![(0x13c64, 0x13c9c)],
            fallback: Vec::new(),
            page_cache: false,
            sites: vec![0x13e00, 0x13f24],
            fallback_sites: Vec::new(),
        };
        assert_eq!(parse(&format(&p)), p);
        let q = Plan {
            compiled: false,
            fallback: vec![(0x13dec, 0x14000)],
            page_cache: true,
            fallback_sites: vec![0x13e00],
            ..p
        };
        assert_eq!(parse(&format(&q)), q);
        assert_eq!(q.compiled_sites(), &[0x13e00]);
        assert_eq!(q.compiled_set(), &[(0x13dec, 0x14000)]);
        assert_eq!(
            parse("pending\n13dec 14000\ndropped 13c64 13c9c\nfallback 13dec 14000\n"),
            Plan::default(),
            "a fallback after the dropped ones"
        );
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
        assert_eq!(
            parse("compiled\n13dec 14000\nsite 13e01\n"),
            none,
            "a site off a word"
        );
        assert_eq!(
            parse("compiled\n13dec 14000\nfallback-site 13e00\nsite 13e04\n"),
            none,
            "a site after the fallback's"
        );
        assert_ne!(key("e1f", "u64"), key("e1f", "vec2"));
        assert_ne!(key("e1f", "u64"), key("e1e", "u64"));
    }
}
