//! The translation tier (docs/translation-tier.md), so far its first step: choosing regions.
//! A region lies in one decoded page: a loop (a backward direct branch and its target) or a
//! function (a BL target to its first RET), scored by the profile's pc samples; the hottest, not
//! overlapping, are what the translator will take. Pure functions over decoded pages, tested
//! without a GPU.

pub mod translate;

use crate::isa::form::{op, unit, Decoded};

/// A loop in one page: `[start, end)` with the samples taken inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub start: u64,
    pub end: u64,
    pub samples: u64,
    /// The decoded slot of its page (set by the machine, which knows them).
    pub slot: u32,
}

impl Region {
    pub fn instructions(&self) -> u64 {
        (self.end - self.start) / 4
    }
}

/// The loops of the page at `page` (its decoded instructions and their sample counts): every
/// backward direct branch (B, B.cond, CBZ/CBNZ, TBZ/TBNZ) whose target lies in the page, from
/// the target to the branch.
pub fn loops(page: u64, code: &[Decoded], counts: &[u32]) -> Vec<Region> {
    let mut v = Vec::new();
    for (j, d) in code.iter().enumerate() {
        let direct = matches!(
            d.op(),
            op::B | op::BCOND | op::BZERO | op::BNONZERO | op::BTZ | op::BTNZ
        );
        if d.unit() != unit::BR || !direct {
            continue;
        }
        let pc = page + 4 * j as u64;
        let target = d.imm() & 0xffff_ffff;
        if target < page || target > pc {
            continue;
        }
        let first = ((target - page) / 4) as usize;
        let samples = counts
            .get(first..=j)
            .map_or(0, |c| c.iter().map(|&x| x as u64).sum());
        v.push(Region {
            start: target,
            end: pc + 4,
            samples,
            slot: 0,
        });
    }
    v
}

/// The targets of the BL instructions of a page of code.
pub fn calls(code: &[Decoded]) -> Vec<u64> {
    code.iter()
        .filter(|d| d.unit() == unit::BR && d.op() == op::BL)
        .map(|d| d.imm() & 0xffff_ffff)
        .collect()
}

/// The functions of the page at `page` that start at one of `entries`: from the entry to its
/// first RET in the page, or to just before the next entry (a function that does not return
/// ends where the next one starts), or to the page's end; with the samples inside.
pub fn functions(page: u64, code: &[Decoded], counts: &[u32], entries: &[u64]) -> Vec<Region> {
    let mut v = Vec::new();
    for &e in entries {
        if e < page || e >= page + 4 * code.len() as u64 || e & 3 != 0 {
            continue;
        }
        let first = ((e - page) / 4) as usize;
        let next = entries
            .iter()
            .filter(|&&x| x > e && x < page + 4 * code.len() as u64)
            .map(|&x| ((x - page) / 4) as usize)
            .min()
            .unwrap_or(code.len());
        // RET is BR x30 (the register selector's rn field, bits 6-11 of w1).
        let last = (first..next)
            .find(|&j| {
                let d = &code[j];
                d.unit() == unit::BR && d.op() == op::BREG && (d.w[1] >> 6) & 63 == 30
            })
            .unwrap_or(next - 1);
        let samples = counts
            .get(first..=last)
            .map_or(0, |c| c.iter().map(|&x| x as u64).sum());
        let r = Region {
            start: e,
            end: page + 4 * (last as u64 + 1),
            samples,
            slot: 0,
        };
        if !v.contains(&r) {
            v.push(r);
        }
    }
    v
}

/// The `n` hottest regions with samples, none overlapping a hotter one (an inner loop hotter
/// than its outer loop wins; otherwise the outer loop, which holds it).
pub fn choose(mut all: Vec<Region>, n: usize) -> Vec<Region> {
    // Hottest first; among equals the larger (the outer loop), then by address.
    all.sort_by(|a, b| {
        b.samples
            .cmp(&a.samples)
            .then((b.end - b.start).cmp(&(a.end - a.start)))
            .then(a.start.cmp(&b.start))
    });
    let mut chosen: Vec<Region> = Vec::new();
    for r in all {
        if chosen.len() == n || r.samples == 0 {
            break;
        }
        if chosen.iter().all(|c| r.end <= c.start || c.end <= r.start) {
            chosen.push(r);
        }
    }
    chosen
}

/// `--tier`: which tiers run guest code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The interpreter only.
    Interp,
    /// Translate hot regions as soon as the profile names any, compiling before the next
    /// submit (the tests' mode: translated code runs from the first dispatches on).
    Translate,
    /// Translate hot regions of programs that run long enough to gain, compiling on a worker
    /// thread while the interpreter goes on.
    #[default]
    Auto,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "interp" => Ok(Mode::Interp),
            "translate" => Ok(Mode::Translate),
            "auto" => Ok(Mode::Auto),
            _ => Err(format!("--tier {s}: expected interp, translate or auto")),
        }
    }
}

/// Regions a pipeline carries at most: lavapipe runs every region's code on every step of
/// every lane, so each one costs the interpreter too.
pub const MAX_REGIONS: usize = crate::gpu::layout::TIER_SLOTS;
/// Instructions a region holds at most: a pipeline's compile time grows with its code, and a
/// larger function's loops are regions of their own.
pub const MAX_REGION_INSNS: u64 = 192;
/// Installs per run at most (each is a compile of the whole shader).
const MAX_INSTALLS: u32 = 4;
/// In auto mode, the profile's samples before the first choice, and the wall time.
const AUTO_SAMPLES: u64 = 24;
const AUTO_DELAY: std::time::Duration = std::time::Duration::from_millis(300);

/// When to choose regions and which: at the first samples (translate) or once a program has
/// run a while (auto), then again each time the profile has doubled, while the hottest regions
/// change; a region below 1/32 of the samples is not worth its cost to every step.
pub struct Policy {
    pub mode: Mode,
    installs: u32,
    at: u64,
    start: std::time::Instant,
}

impl Policy {
    pub fn new(mode: Mode) -> Policy {
        Policy {
            mode,
            installs: 0,
            at: 0,
            start: std::time::Instant::now(),
        }
    }

    /// Looks again at the next submit (regions were dropped).
    pub fn soon(&mut self) {
        self.at = 0;
    }

    /// Whether to look at the profile now (it has `samples`).
    pub fn due(&self, samples: u64) -> bool {
        let ready = match self.mode {
            Mode::Interp => false,
            Mode::Translate => samples >= 1,
            Mode::Auto => samples >= AUTO_SAMPLES && self.start.elapsed() >= AUTO_DELAY,
        };
        ready && self.installs < MAX_INSTALLS && samples >= 2 * self.at
    }

    /// The regions to translate from the hottest (`hot`, hottest first), or `None` to keep
    /// the installed ones (`installed`: start and slot).
    pub fn pick(
        &mut self,
        samples: u64,
        hot: Vec<Region>,
        installed: &[(u64, u32)],
    ) -> Option<Vec<Region>> {
        self.at = samples;
        let min = if self.mode == Mode::Translate {
            1
        } else {
            samples / 32
        };
        // What the installed regions are worth now (`hot` lists more than a pipeline takes).
        let worth = |keys: &[(u64, u32)]| -> u64 {
            hot.iter()
                .filter(|r| keys.contains(&(r.start, r.slot)))
                .map(|r| r.samples)
                .sum()
        };
        let take: Vec<Region> = hot
            .iter()
            .filter(|r| r.samples >= min.max(1))
            .take(MAX_REGIONS)
            .cloned()
            .collect();
        let keys: Vec<(u64, u32)> = take.iter().map(|r| (r.start, r.slot)).collect();
        // Each install is a compile: change the set only for a clear gain.
        let (new, old) = (worth(&keys), worth(installed));
        if take.is_empty() || keys.iter().all(|k| installed.contains(k)) || new * 4 < old * 5 {
            return None;
        }
        self.installs += 1;
        Some(take)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: u64 = 0x10000;

    /// A page of NOPs with these words placed at their instruction indexes.
    fn page(words: &[(usize, u32)]) -> Vec<Decoded> {
        let mut bytes = vec![0u8; 4096];
        for i in 0..1024 {
            bytes[i * 4..i * 4 + 4].copy_from_slice(&0xd503_201fu32.to_le_bytes());
        }
        for &(i, w) in words {
            bytes[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        crate::isa::decode_page(&bytes, PAGE)
    }

    /// `b.ne` from instruction `at` back to instruction `to`.
    fn bne(at: usize, to: usize) -> (usize, u32) {
        let off = (to as i64 - at as i64) as u32 & 0x7ffff;
        (at, 0x5400_0001 | off << 5)
    }

    #[test]
    fn a_backward_branch_makes_a_loop_and_a_forward_one_does_not() {
        let code = page(&[bne(20, 10), (30, 0x1400_0005)]); // b .+20 (forward)
        let mut counts = vec![0u32; 1024];
        counts[12] = 5;
        counts[25] = 7;
        let l = loops(PAGE, &code, &counts);
        assert_eq!(
            l,
            vec![Region {
                start: PAGE + 40,
                end: PAGE + 84,
                samples: 5,
                slot: 0
            }]
        );
        assert_eq!(l[0].instructions(), 11);
    }

    #[test]
    fn a_called_function_runs_to_its_first_ret() {
        // bl +40 (to instruction 50) at 10; ret at 60 and 70.
        let code = page(&[(10, 0x9400_0028), (60, 0xd65f_03c0), (70, 0xd65f_03c0)]);
        let entries = calls(&code);
        assert_eq!(entries, vec![PAGE + 200]);
        let mut counts = vec![0u32; 1024];
        counts[55] = 3;
        counts[65] = 9;
        let f = functions(PAGE, &code, &counts, &entries);
        assert_eq!(
            f,
            vec![Region {
                start: PAGE + 200,
                end: PAGE + 244,
                samples: 3,
                slot: 0
            }]
        );
        assert!(
            functions(PAGE, &code, &counts, &[PAGE + 8192]).is_empty(),
            "another page"
        );
        // With another function starting at 58, the first ends before it.
        let f = functions(PAGE, &code, &counts, &[PAGE + 200, PAGE + 232]);
        assert_eq!((f[0].end, f[0].samples), (PAGE + 232, 3));
    }

    #[test]
    fn the_hottest_loops_win_and_do_not_overlap() {
        // An outer loop 0..=40 holding an inner one 10..=20, and a loop 100..=110.
        let code = page(&[bne(20, 10), bne(40, 0), bne(110, 100)]);
        let mut counts = vec![0u32; 1024];
        for c in &mut counts[10..=20] {
            *c = 10;
        }
        counts[30] = 1;
        counts[105] = 50;
        let chosen = choose(loops(PAGE, &code, &counts), 3);
        let starts: Vec<u64> = chosen.iter().map(|r| (r.start - PAGE) / 4).collect();
        // The outer loop (111 samples) holds the inner (110): the outer is taken, the inner
        // overlaps it; the third loop is cooler.
        assert_eq!(starts, vec![0, 100]);
        assert_eq!(chosen[0].samples, 111);
        assert!(choose(loops(PAGE, &code, &vec![0; 1024]), 3).is_empty());
    }
}
