//! The translation tier (docs/translation-tier.md), so far its first step: choosing regions.
//! A region lies in one decoded page: a loop (a backward direct branch and its target) or a
//! function (a BL target to its first RET), scored by the profile's pc samples; the hottest, not
//! overlapping, are what the translator will take. Pure functions over decoded pages, tested
//! without a GPU.

pub mod deferred;
pub mod saved;
pub mod simd;
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
        let Some(target) = local_target(d) else {
            continue;
        };
        let pc = page + 4 * j as u64;
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

/// Where a BL goes, if `d` is one.
fn call_target(d: &Decoded) -> Option<u64> {
    (d.unit() == unit::BR && d.op() == op::BL).then(|| d.imm() & 0xffff_ffff)
}

/// The targets of the BL instructions of a page of code.
pub fn calls(code: &[Decoded]) -> Vec<u64> {
    code.iter().filter_map(call_target).collect()
}

/// Whether `d` is a RET (BR x30: the register selector's rn field, bits 6-11 of w1).
fn is_ret(d: &Decoded) -> bool {
    d.unit() == unit::BR && d.op() == op::BREG && (d.w[1] >> 6) & 63 == 30
}

/// Where a direct branch goes, if it is one that stays in a function (not BL).
fn local_target(d: &Decoded) -> Option<u64> {
    let direct = matches!(
        d.op(),
        op::B | op::BCOND | op::BZERO | op::BNONZERO | op::BTZ | op::BTNZ
    );
    (d.unit() == unit::BR && direct).then(|| d.imm() & 0xffff_ffff)
}

/// Whether control never falls through `d` (B, RET, BR).
fn ends_block(d: &Decoded) -> bool {
    d.unit() == unit::BR && matches!(d.op(), op::B | op::BREG)
}

/// `[first, end)` of the page at `page` grown to hold the code its direct branches (and those
/// of `more`, the function's part in the page before) reach before `next`: a compiler places
/// cold paths and loops after the RET (primes' counting loop after main's RET, reached by a
/// branch back).
fn close(
    page: u64,
    code: &[Decoded],
    first: usize,
    mut end: usize,
    next: usize,
    more: &[u64],
) -> usize {
    loop {
        let reach = code[first..end]
            .iter()
            .filter_map(local_target)
            .chain(more.iter().copied())
            .filter(|&t| t >= page + 4 * end as u64 && t < page + 4 * next as u64 && t & 3 == 0)
            .map(|t| ((t - page) / 4) as usize)
            .max();
        let Some(t) = reach else {
            return end;
        };
        let stop = (t..next)
            .find(|&k| ends_block(&code[k]))
            .unwrap_or(next - 1);
        end = stop + 1;
    }
}

/// The functions of the page at `page` that start at one of `entries`: from the entry to its
/// last RET before the next entry (early returns stay inside), or its first where that would
/// make it larger than a region may be; without a RET, to just before the next entry (a
/// function that does not return ends where the next one starts) or to the page's end (the
/// function goes on in the next page: [`tail`]); with the samples inside.
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
            .unwrap_or(code.len())
            .min(padding(code, first));
        let mut rets = (first..next).filter(|&j| is_ret(&code[j]));
        let last = match (rets.next(), rets.next_back()) {
            (Some(_), Some(b)) if ((b - first) as u64) < MAX_REGION_INSNS => b,
            (Some(a), _) => a,
            _ => next - 1,
        };
        let last = close(page, code, first, last + 1, next, &[]) - 1;
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

/// Where padding between functions starts after `first`: an instruction that only traps (UDF,
/// a zero word) right after a return or a branch. The next function there may be one no BL
/// names (glibc's `__strlen_asimd`, reached by BR x17 and followed by `__strlen_mte`): without
/// this its region ran on to the next one's RET over the padding and was refused for it.
fn padding(code: &[Decoded], first: usize) -> usize {
    (first + 1..code.len())
        .find(|&k| code[k].unit() == unit::TRAP && ends_block(&code[k - 1]))
        .unwrap_or(code.len())
}

/// The rest of a function that runs off the end of its page, in the next page (`page`): from
/// the page's start to its last RET before the first entry there (or that entry, or the page's
/// end), with the samples inside.
pub fn tail(page: u64, code: &[Decoded], counts: &[u32], entries: &[u64], more: &[u64]) -> Region {
    let next = entries
        .iter()
        .filter(|&&x| x >= page && x < page + 4 * code.len() as u64)
        .map(|&x| ((x - page) / 4) as usize)
        .min()
        .unwrap_or(code.len())
        .min(padding(code, 0));
    let end = (0..next)
        .rev()
        .find(|&j| is_ret(&code[j]))
        .map_or(next, |j| j + 1)
        .max(1);
    let end = close(page, code, 0, end, next, more);
    Region {
        start: page,
        end: page + 4 * end as u64,
        samples: counts
            .get(..end)
            .map_or(0, |c| c.iter().map(|&x| x as u64).sum()),
        slot: 0,
    }
}

/// One decoded page of code as the region planner sees it.
pub struct Page<'a> {
    pub addr: u64,
    pub code: &'a [Decoded],
    /// Samples per instruction.
    pub counts: &'a [u32],
    pub slot: u32,
    /// Function entries in it that no BL names: targets of indirect branches seen leaving
    /// translated code (glibc's string functions behind their `.iplt` stubs).
    pub entries: &'a [u64],
}

/// The regions worth translating, in the order to take them (a region and the regions that
/// keep it from bouncing through the interpreter next to each other), at most `n`.
///
/// Whole functions are preferred over the loops inside them: a call or a return between
/// translated regions costs nothing, while one between a region and interpreted code costs a
/// dispatch each way (sha256's compress called from the loop inlined into main: 2 dispatches
/// per 64-byte block). A function that runs off its page's end brings its tail in the next
/// page, and the callers of a chosen function come after it (taking the place of chosen
/// regions they hold), where there is room: a caller that runs code of its own (has samples;
/// not the start-up code waiting in main). `refused(start, slot)`: regions the translator
/// could not take; `dropped`: regions found unprofitable alone, which come back only with a
/// region they call; `running`: the installed regions, which count as hot however few samples
/// their fast code took (so their callers come with them).
pub fn plan(
    pages: &[Page],
    refused: &dyn Fn(u64, u32) -> bool,
    dropped: &dyn Fn(u64, u32) -> bool,
    running: &dyn Fn(u64, u32) -> bool,
    n: usize,
) -> Vec<Region> {
    let mut entries: Vec<u64> = pages
        .iter()
        .flat_map(|p| calls(p.code).into_iter().chain(p.entries.iter().copied()))
        .collect();
    entries.sort_unstable();
    entries.dedup();
    // Each page's loops, in the page's order (the callers' test below looks at them again).
    let page_loops: Vec<Vec<Region>> = pages
        .iter()
        .map(|p| loops(p.addr, p.code, p.counts))
        .collect();
    let looped = looped_calls(pages);
    // The slot of the code at `pc` now (pages come oldest slot first).
    let newest = |pc: u64| {
        pages
            .iter()
            .rev()
            .find(|p| p.addr == pc & !0xfff)
            .map(|p| p.slot)
    };
    // Functions that have run (sampled), by their entry: a loop calling one of them keeps its
    // caller whole.
    let page_funcs: Vec<Vec<Region>> = pages
        .iter()
        .map(|p| functions(p.addr, p.code, p.counts, &entries))
        .collect();
    let sampled: std::collections::HashSet<u64> = page_funcs
        .iter()
        .flatten()
        .filter(|f| f.samples > 0)
        .map(|f| f.start)
        .collect();
    let mut all: Vec<Region> = Vec::new();
    for ((p, loops), funcs) in pages.iter().zip(&page_loops).zip(page_funcs) {
        let fits = |r: &Region| r.instructions() <= MAX_REGION_INSNS;
        // A function whose sampled loops call nothing and hold its time, that no loop calls
        // and that calls no function that has run from a loop, is left to those loops:
        // entered once (the sieve's main), the rest of it only costs compile time (~5 ms per
        // instruction on lavapipe; the sieve's main is 216 instructions, its two loops 57),
        // and its first translated code runs sooner. Where such a loop was refused or
        // dropped, or the function runs already, it stays whole. (Left to its buffer's fill
        // loop, sha256's main then ran compress from interpreted code: taken back whole in a
        // later pick, its compile seldom landed in a run as short as the bench's.)
        let loop_only = |f: &Region| -> bool {
            // Its calls from loops, in its part in this page or the next (its tail).
            let part = |pc: u64| {
                f.start <= pc && (pc < f.end || (f.end & 0xfff == 0 && pc < f.end + 4096))
            };
            if f.samples == 0
                || running(f.start, p.slot)
                || looped
                    .iter()
                    .any(|&(pc, t, _)| t == f.start || (part(pc) && sampled.contains(&t)))
            {
                return false;
            }
            let inner: Vec<&Region> = loops
                .iter()
                .filter(|l| l.samples > 0 && f.start <= l.start && l.end <= f.end)
                .collect();
            let at = |pc: u64| ((pc - p.addr) / 4) as usize;
            let calls_or_off = inner.iter().any(|l| {
                refused(l.start, p.slot)
                    || dropped(l.start, p.slot)
                    || p.code[at(l.start)..at(l.end)].iter().any(|d| {
                        call_target(d).is_some() || d.unit() == unit::BR && d.op() == op::BLREG
                    })
            });
            let covered: u64 = (f.start..f.end)
                .step_by(4)
                .filter(|&pc| inner.iter().any(|l| l.start <= pc && pc < l.end))
                .map(|pc| p.counts.get(at(pc)).copied().unwrap_or(0) as u64)
                .sum();
            !inner.is_empty() && !calls_or_off && covered * 10 >= f.samples * 9
        };
        let funcs: Vec<Region> = funcs.into_iter().filter(|f| !loop_only(f)).collect();
        // A loop inside a function that is itself a region (not refused or dropped) is left to
        // the function.
        let whole: Vec<&Region> = funcs
            .iter()
            .filter(|f| fits(f) && !refused(f.start, p.slot) && !dropped(f.start, p.slot))
            .collect();
        let loose = loops
            .iter()
            .filter(|l| !whole.iter().any(|f| f.start <= l.start && l.end <= f.end));
        all.extend(
            loose
                .chain(funcs.iter())
                .filter(|r| fits(r))
                .map(|r| Region {
                    slot: p.slot,
                    // One sample in a dispatch's budget: a region called from interpreted code
                    // runs a short tier dispatch per call and is seldom sampled.
                    samples: if running(r.start, p.slot) {
                        r.samples.max(1)
                    } else {
                        r.samples
                    },
                    ..r.clone()
                })
                .filter(|r| !refused(r.start, r.slot)),
        );
    }
    all.dedup();
    let disjoint =
        |r: &Region, v: &[Region]| v.iter().all(|c| r.end <= c.start || c.end <= r.start);
    let mut chosen: Vec<Region> = Vec::new();
    let mut hot = choose(
        all.iter()
            .filter(|r| !dropped(r.start, r.slot))
            .cloned()
            .collect(),
        n,
    )
    .into_iter();
    // Takes `r` with what belongs with it: its tail, then its callers (and theirs) and the
    // callees it runs in a loop (not theirs, nor their other callers: memcpy, pulled by
    // sha256's main, would bring printf's helpers).
    let mut queue: std::collections::VecDeque<(Region, Why)> = Default::default();
    while chosen.len() < n {
        let (r, belongs, why) = match queue.pop_front() {
            Some((r, why)) => (r, true, why),
            None => match hot.next() {
                Some(r) => (r, false, Why::Hot),
                None => break,
            },
        };
        if !disjoint(&r, &chosen) {
            // A caller or tail holding chosen regions (and overlapping no other) takes their
            // place.
            let holds = |c: &Region| r.start <= c.start && c.end <= r.end;
            if !belongs
                || !chosen
                    .iter()
                    .all(|c| disjoint(c, std::slice::from_ref(&r)) || holds(c))
            {
                continue;
            }
            chosen.retain(|c| !holds(c));
        }
        let at = chosen.len();
        chosen.push(r.clone());
        if r.end & 0xfff == 0 {
            if let Some(p) = pages.iter().rev().find(|p| p.addr == r.end) {
                // Branches from the function's part before into this page.
                let more: Vec<u64> = pages
                    .iter()
                    .filter(|q| q.slot == r.slot)
                    .flat_map(|q| {
                        let (a, b) = (
                            ((r.start - q.addr) / 4) as usize,
                            ((r.end - q.addr) / 4) as usize,
                        );
                        q.code[a..b]
                            .iter()
                            .filter_map(local_target)
                            .collect::<Vec<u64>>()
                    })
                    .collect();
                let t = Region {
                    slot: p.slot,
                    samples: r.samples,
                    ..tail(p.addr, p.code, p.counts, &entries, &more)
                };
                if t.instructions() <= MAX_REGION_INSNS && !refused(t.start, t.slot) {
                    queue.push_front((t, why));
                }
            }
        }
        // The function `r` starts, if it is one: the callers that call it from a loop (each
        // trip would bounce; start-up code calling main once would not) and run code of their
        // own (sha256's main; not check(), which calls it three times) come next. A caller is
        // a function or, where its function is no region (too long, or holding an instruction
        // the translator leaves: glibc's main zeroes its context with NEON), its loop.
        if entries.contains(&r.start) && why != Why::Callee {
            let calls_in_loop = |g: &Region| {
                looped.iter().any(|&(pc, t, slot)| {
                    t == r.start && slot == g.slot && g.start <= pc && pc < g.end
                })
            };
            let mut callers: Vec<&Region> = all
                .iter()
                .filter(|g| g.start != r.start)
                // Sampled at least 1/32 as often as `r`: a caller that runs a loop of calls
                // once (glibc's sha256_final padding the last block) is not worth a slot.
                .filter(|g| g.samples > 0 && g.samples * 32 >= r.samples)
                .filter(|g| !chosen.contains(g) && calls_in_loop(g))
                .collect();
            callers.sort_by_key(|g| std::cmp::Reverse(g.samples));
            for g in callers {
                // Worth what it lets run translated.
                let samples = g.samples.max(chosen[at].samples);
                queue.push_back((
                    Region {
                        samples,
                        ..g.clone()
                    },
                    Why::Caller,
                ));
            }
        }
        // A hot region's callees that it calls from a loop and that run a share of its time
        // (sampled at least 1/32 as often) come with it: alone it would bounce through the
        // interpreter at each call and be dropped, costing a compile without it and another with
        // them (sha256's main without compress at 64 instances: 9.7 s against 4 s). Only for a
        // region chosen for its own samples or its tail: a callee does not bring its callees.
        if why == Why::Hot {
            let mut callees: Vec<&Region> = all
                .iter()
                .filter(|g| {
                    entries.contains(&g.start)
                        && newest(g.start) == Some(g.slot)
                        && g.samples > 0
                        && g.samples * 32 >= r.samples
                        && !chosen.contains(g)
                        && looped.iter().any(|&(pc, t, slot)| {
                            t == g.start && slot == r.slot && r.start <= pc && pc < r.end
                        })
                })
                .collect();
            callees.sort_by_key(|g| std::cmp::Reverse(g.samples));
            for g in callees {
                queue.push_back((
                    Region {
                        samples: g.samples.max(chosen[at].samples),
                        ..g.clone()
                    },
                    Why::Callee,
                ));
            }
        }
    }
    chosen
}

/// Why the planner takes a region (a tail shares its function's reason).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Why {
    /// Its own samples.
    Hot,
    /// It calls a chosen region from a loop.
    Caller,
    /// A chosen region calls it from a loop.
    Callee,
}

/// The calls made from inside a loop, as (the BL's address, its target, its page's slot): a
/// BL between a backward direct branch and its target, in one page or from the page before
/// (a loop may cross a page where its function does: sha256's main calls compress from a loop
/// whose branch back lies in the next page, so main was not seen as compress's caller).
fn looped_calls(pages: &[Page]) -> Vec<(u64, u64, u32)> {
    let mut v = Vec::new();
    for p in pages {
        for (j, d) in p.code.iter().enumerate() {
            let Some(t) = local_target(d) else { continue };
            let pc = p.addr + 4 * j as u64;
            if t > pc || t + 4096 < p.addr {
                continue;
            }
            // The span's instructions, in this page and the one before where it starts there.
            let before = pages
                .iter()
                .filter(|q| q.addr + 4096 == p.addr && t < p.addr);
            for q in before.chain(std::iter::once(p)) {
                let lo = t.max(q.addr);
                let hi = (pc + 4).min(q.addr + 4 * q.code.len() as u64);
                for k in (lo..hi).step_by(4) {
                    if let Some(c) = call_target(&q.code[((k - q.addr) / 4) as usize]) {
                        v.push((k, c, q.slot));
                    }
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
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

/// Whether a run's translated code did most of its work: what it left to the interpreter and
/// what its dispatches cost (about `MIN_INSNS_PER_RUN / 2` interpreted instructions each on
/// lavapipe, where an entry costs two) take less time than its translated instructions (which
/// run about 25 times faster than interpreted ones). Not the translated share alone: sha256
/// at 98.4% translated ran at 35-55 MIPS when main's tail bounced (3584 dispatches) and at
/// 80-120 when it did not (97).
///
/// [`MIN_INSNS_PER_RUN`]: crate::gpu::machine::tiered::MIN_INSNS_PER_RUN
pub fn ran_well(insns: u64, translated: u64, dispatches: u64) -> bool {
    let per_dispatch = crate::gpu::machine::tiered::MIN_INSNS_PER_RUN / 2;
    let overhead = insns.saturating_sub(translated) + dispatches * per_dispatch;
    overhead * 25 <= translated
}

/// When to choose regions and which: at the first samples (translate) or once a program has
/// run a while (auto), then again each time the profile has doubled, while the hottest regions
/// change; a region below 1/8 of the samples is not worth its compile and its cost to every step.
pub struct Policy {
    pub mode: Mode,
    installs: u32,
    at: u64,
    /// After a drop: the samples to wait for.
    fresh: Option<u64>,
    start: web_time::Instant,
    /// The run started from a compiled saved set ([`Policy::restart`]).
    saved: bool,
}

/// How long a run from a compiled saved set runs it before a pick may replace it.
const SETTLE: std::time::Duration = std::time::Duration::from_secs(2);

/// Instructions up to which a region needs only the auto mode's share of the profile.
const LONG_REGION: u64 = 96;

/// Fresh samples a plan waits for after a drop.
const FRESH: u64 = 16;

/// Whether GARM_TIER_DEBUG asks for the tier's lines on stderr (plans, builds, swaps, drops,
/// refusals); read once.
pub fn debug() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GARM_TIER_DEBUG").is_some())
}

/// Whether GARM_TIMELINE asks for a line per submit on stderr (its time since the start, its
/// dispatches and GPU time, the instructions retired and translated so far: where a run's time
/// goes, phase by phase); read once.
pub fn timeline() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GARM_TIMELINE").is_some())
}

/// GARM_TIER_PAGE_CACHE=0 or 1: every pipeline built without or with the page cache
/// ([`crate::gpu::shader::Tier::page_cache`]) whatever the instance count, so the tests check
/// the deferred page entries on one instance's programs too; read once.
pub fn forced_page_cache() -> Option<bool> {
    static ON: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
    *ON.get_or_init(|| match std::env::var("GARM_TIER_PAGE_CACHE").as_deref() {
        Ok("0") => Some(false),
        Ok("1") => Some(true),
        _ => None,
    })
}

static START: std::sync::OnceLock<web_time::Instant> = std::sync::OnceLock::new();

/// Seconds since the run's policy was made (for GARM_TIER_DEBUG's lines).
pub fn elapsed() -> f64 {
    START
        .get_or_init(web_time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

impl Policy {
    pub fn new(mode: Mode) -> Policy {
        elapsed();
        Policy {
            mode,
            installs: 0,
            at: 0,
            fresh: None,
            start: web_time::Instant::now(),
            saved: false,
        }
    }

    /// A compiled set was installed before the first dispatch: the wait before a first plan
    /// counts from now, and while that set runs well ([`ran_well`]) no plan replaces it.
    pub fn restart(&mut self) {
        self.start = web_time::Instant::now();
        self.saved = true;
    }

    /// Whether a plan is wanted at all, before [`Policy::due`]: not while the set a run
    /// started with runs well. A pick in such a run is a gamble on a few samples, and its
    /// compile takes a core from the guests for seconds (sha256 at 64 instances: memcpy
    /// added mid-run, 1150 -> 914 MIPS, and 6-9 s more compile after the run); what it would
    /// add, the run's end adds to the next run's plan ([`Policy::at_end`]).
    /// Nor in the first [`SETTLE`] of such a run: its start-up, interpreted, makes any run
    /// look poor at first, and a pick then compiles during most of a short run.
    pub fn wanted(&self, insns: u64, translated: u64, dispatches: u64) -> bool {
        let judged = self.start.elapsed() >= SETTLE && !ran_well(insns, translated, dispatches);
        !self.saved || self.mode != Mode::Auto || judged
    }

    /// Looks again once `FRESH` samples more than `samples` are in (regions were dropped and
    /// the profile decayed: a plan from a handful of samples would be noise).
    pub fn soon(&mut self, samples: u64) {
        self.at = 0;
        self.fresh = Some(samples + FRESH);
    }

    /// Whether to look at the profile now (it has `samples`).
    pub fn due(&self, samples: u64) -> bool {
        let ready = match self.mode {
            Mode::Interp => false,
            Mode::Translate => samples >= 1,
            Mode::Auto => samples >= AUTO_SAMPLES && self.start.elapsed() >= AUTO_DELAY,
        };
        let fresh = self.fresh.is_none_or(|f| samples >= f);
        // The tests' mode installs as often as the profile doubles: their programs' hot code
        // can come after start-up regions worth nothing (glibc's, with their saves of q0-q7,
        // are taken since the translator takes V-register loads and stores).
        let more = self.installs < MAX_INSTALLS || self.mode == Mode::Translate;
        ready && fresh && more && samples >= 2 * self.at
    }

    /// The share of the profile (of `weight`) region `r` needs to be chosen: an eighth in auto
    /// mode, more for a long region (its cold compile grows with it: glibc's start-up memset
    /// and memcpy variants, ~170 instructions and ~90 memory accesses, cost 4-5 s each when
    /// taken on 3 samples of 27, to be dropped soon after); any sample in the tests' mode.
    fn need(&self, weight: u64, r: &Region) -> u64 {
        match self.mode {
            Mode::Translate => 1,
            _ => (weight / 8 * r.instructions().max(LONG_REGION) / LONG_REGION).max(1),
        }
    }

    /// At a run's end in auto mode: the regions of `hot` worth adding to the set the run ends
    /// with (`installed`), for the next run's plan. A run whose plan was installed at its start
    /// and that ended before its next plan (the sieve at one instance: 0.16 s) leaves its
    /// start-up loops interpreted for good otherwise (calloc's memset: 15% of that run's time).
    /// Only what a plan in the run would have taken: a region with its share, none overlapping
    /// the set, and only from a run long enough to plan (it `ran` that long) or one that
    /// started from a saved plan (a program run again and again: its start-up's compile pays).
    pub fn at_end(
        &self,
        ran: std::time::Duration,
        from_plan: bool,
        weight: u64,
        hot: &[Region],
        installed: &[Region],
    ) -> Vec<Region> {
        if self.mode != Mode::Auto || weight < AUTO_SAMPLES || (ran < AUTO_DELAY && !from_plan) {
            return Vec::new();
        }
        let mut take: Vec<Region> = Vec::new();
        for r in hot.iter().filter(|r| r.samples >= self.need(weight, r)) {
            let apart = |c: &Region| c.slot != r.slot || c.end <= r.start || r.end <= c.start;
            if installed.len() + take.len() < MAX_REGIONS
                && installed.iter().chain(&take).all(apart)
            {
                take.push(r.clone());
            }
        }
        take
    }

    /// The regions to translate from the hottest (`hot`, hottest first), or `None` to keep
    /// the installed ones (`installed`: start and slot, and as samples the instructions run by
    /// the lanes that entered each: [`crate::gpu::machine::Machine`]'s tier regions);
    /// `samples` taken so far, `weight` what the decayed profile holds now.
    pub fn pick(
        &mut self,
        samples: u64,
        weight: u64,
        hot: Vec<Region>,
        installed: &[Region],
    ) -> Option<Vec<Region>> {
        self.at = samples;
        self.fresh = None;
        // Each region costs its compile (~0.5 s per 100 instructions on lavapipe) and its
        // share of every tier step: in auto mode only those with an eighth of the weight
        // (`need`).
        // What the installed regions are worth now (`hot` lists more than a pipeline takes).
        let worth = |keys: &[(u64, u32)]| -> u64 {
            hot.iter()
                .filter(|r| keys.contains(&(r.start, r.slot)))
                .map(|r| r.samples)
                .sum()
        };
        // The installed regions stay (the drop rule takes one out, a region holding one or a
        // hot one wanting the slot of one no longer sampled replaces it): while they run well
        // they are under-sampled (translated code is sampled by its instructions, interpreted
        // code once per dispatch), and a pick of the interpreted helpers alone dropped
        // sha256's compress at 64 instances, leaving main to bounce on every call.
        let installed_keys: Vec<(u64, u32)> = installed.iter().map(|r| (r.start, r.slot)).collect();
        let mut take: Vec<Region> = installed.to_vec();
        // Holding a thirty-second of the (decayed) profile: more than the one sample an
        // installed region is granted, or the remains of a phase that is over.
        let busy = |c: &Region| {
            hot.iter().any(|h| {
                (h.start, h.slot) == (c.start, c.slot) && h.samples > 1 && h.samples * 32 >= weight
            })
        };
        for r in hot.iter().filter(|r| r.samples >= self.need(weight, r)) {
            if installed_keys.contains(&(r.start, r.slot)) {
                continue;
            }
            // A region holding installed ones (a function whose loop ran alone) takes their
            // place.
            let held = |c: &Region| c.slot == r.slot && r.start <= c.start && c.end <= r.end;
            let n_held = take.iter().filter(|c| held(c)).count();
            if take.len() - n_held >= MAX_REGIONS {
                // An installed region that no longer runs (a phase that is over: start-up's
                // malloc at 64 instances) makes room: of those, the one lanes ran least in
                // after entering it (`installed`'s samples). Translated code is seldom sampled,
                // so glibc's strs test's main (its lanes' way back from every interpreted
                // libc call) had no more samples than the PLT stubs and went first, and its
                // callees, now entered from interpreted code, were dropped as bouncing.
                let spare = |c: &Region| {
                    installed_keys.contains(&(c.start, c.slot)) && !held(c) && !busy(c)
                };
                let mut victim: Option<usize> = None;
                for (k, c) in take.iter().enumerate() {
                    if spare(c) && victim.is_none_or(|v| c.samples < take[v].samples) {
                        victim = Some(k);
                    }
                }
                if let Some(k) = victim {
                    take.remove(k);
                }
            }
            if take.len() - n_held < MAX_REGIONS {
                take.retain(|c| !held(c));
                take.push(r.clone());
            }
        }
        let installed = &installed_keys[..];
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
        page_at(PAGE, words)
    }

    /// [`page`] decoded at `addr`.
    fn page_at(addr: u64, words: &[(usize, u32)]) -> Vec<Decoded> {
        let mut bytes = vec![0u8; 4096];
        for i in 0..1024 {
            bytes[i * 4..i * 4 + 4].copy_from_slice(&0xd503_201fu32.to_le_bytes());
        }
        for &(i, w) in words {
            bytes[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        crate::isa::decode_page(&bytes, addr)
    }

    /// A region of instructions `start..end` of the test page with `samples`.
    fn at(start: u64, end: u64, samples: u64) -> Region {
        Region {
            start: PAGE + 4 * start,
            end: PAGE + 4 * end,
            samples,
            slot: 0,
        }
    }

    /// `b.ne` from instruction `at` back to instruction `to`.
    fn bne(at: usize, to: usize) -> (usize, u32) {
        let off = (to as i64 - at as i64) as u32 & 0x7ffff;
        (at, 0x5400_0001 | off << 5)
    }

    #[test]
    fn a_run_ran_well_when_its_interpreted_part_and_dispatches_cost_less_than_its_translated() {
        // sha256 x1 (7.54 M instructions): main's tail interpreted and bouncing, then not.
        assert!(!ran_well(7_540_801, 7_419_380, 3584));
        assert!(ran_well(7_540_801, 7_461_192, 97));
        // Its saved set without main's loop: 87% translated.
        assert!(!ran_well(7_540_801, 6_592_038, 3232));
        assert!(!ran_well(100, 0, 0));
        assert!(ran_well(0, 0, 0));
    }

    #[test]
    fn a_run_from_a_compiled_saved_set_does_not_pick_in_its_first_seconds() {
        let mut p = Policy::new(Mode::Auto);
        assert!(p.wanted(100, 0, 0), "a run with no set of its own yet");
        p.restart();
        assert!(!p.wanted(100, 0, 0), "poor, but only just installed");
        assert!(!p.wanted(7_540_801, 7_461_192, 97));
        let mut t = Policy::new(Mode::Translate);
        t.restart();
        assert!(
            t.wanted(7_540_801, 7_461_192, 97),
            "the tests' mode picks as it did"
        );
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

    /// `bl` from instruction `at` to instruction `to`.
    fn bl(at: usize, to: usize) -> (usize, u32) {
        (
            at,
            0x9400_0000 | ((to as i64 - at as i64) as u32 & 0x3ff_ffff),
        )
    }

    /// `b` from instruction `at` to instruction `to`.
    fn b(at: usize, to: usize) -> (usize, u32) {
        (
            at,
            0x1400_0000 | ((to as i64 - at as i64) as u32 & 0x3ff_ffff),
        )
    }

    const RET: u32 = 0xd65f_03c0;

    #[test]
    fn a_called_function_runs_to_its_last_ret_and_the_code_it_branches_to() {
        // bl at 10 to 50; ret at 60 and 70; a branch at 65 to 80, whose block ends with a
        // branch back at 85 (a path the compiler placed after the last ret).
        let code = page(&[bl(10, 50), (60, RET), bne(65, 80), (70, RET), b(85, 66)]);
        let entries = calls(&code);
        assert_eq!(entries, vec![PAGE + 200]);
        let mut counts = vec![0u32; 1024];
        counts[55] = 3;
        counts[65] = 9;
        counts[82] = 1;
        let f = functions(PAGE, &code, &counts, &entries);
        assert_eq!(
            f,
            vec![Region {
                start: PAGE + 200,
                end: PAGE + 4 * 86,
                samples: 13,
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

    /// Pages at PAGE (slot 1, with `counts`) and the next (slot 2, with `counts2`).
    fn two_pages<'a>(
        p1: &'a [Decoded],
        counts: &'a [u32],
        p2: &'a [Decoded],
        counts2: &'a [u32],
    ) -> [Page<'a>; 2] {
        [
            Page {
                addr: PAGE,
                code: p1,
                counts,
                slot: 1,
                entries: &[],
            },
            Page {
                addr: PAGE + 4096,
                code: p2,
                counts: counts2,
                slot: 2,
                entries: &[],
            },
        ]
    }

    #[test]
    fn a_function_that_runs_off_its_page_brings_its_tail() {
        // Page 1: main from 1000 to its end (no RET: it goes on). Page 2: main's tail up to its
        // RET at 10, a path after it (20..=24) reached by a branch from page 1, then f at 40.
        let mut w1 = vec![bl(0, 1000)];
        w1.push(bne(1010, 1001));
        // b.ne from 1020 (page 1) to page 2's instruction 20.
        let off = (1024 + 20 - 1020) as u32 & 0x7ffff;
        w1.push((1020, 0x5400_0001 | off << 5));
        let p1 = page(&w1);
        let p2code = page_at(PAGE + 4096, &[(10, RET), b(24, 5), bl(30, 40), (45, RET)]);
        let mut hot = vec![0u32; 1024];
        // Outside main's loop (time in a call-free loop alone would leave main to the loop).
        hot[1015] = 9;
        let zeros = vec![0u32; 1024];
        let pages = two_pages(&p1, &hot, &p2code, &zeros);
        let none = |_: u64, _: u32| false;
        let got: Vec<(u64, u64, u32)> = plan(&pages, &none, &none, &none, 4)
            .iter()
            .map(|r| (r.start - PAGE, r.end - PAGE, r.slot))
            .collect();
        // main's part in page 1, then its tail in page 2 through the path at 20..=24.
        assert_eq!(got, vec![(4000, 4096, 1), (4096, 4096 + 25 * 4, 2)]);
    }

    #[test]
    fn a_caller_whose_loop_crosses_a_page_is_seen_calling_from_a_loop() {
        // Page 1: start-up calls main (1000) once; main calls f (page 1's 200) at 1010, in a
        // loop whose branch back lies in page 2 (its 5, to 1005). f's loop is hot.
        let p1 = page(&[
            bl(0, 1000),
            (2, RET),
            bne(220, 205),
            (230, RET),
            bl(1010, 200),
        ]);
        // b.ne at page 2's 5 back to page 1's 1005 (-24 instructions); main's RET at 9.
        let off = (1005i64 - (1024 + 5)) as u32 & 0x7ffff;
        let p2code = page_at(PAGE + 4096, &[(5, 0x5400_0001 | off << 5), (9, RET)]);
        let mut hot = vec![0u32; 1024];
        hot[210] = 40;
        hot[1008] = 2;
        let zeros = vec![0u32; 1024];
        let pages = two_pages(&p1, &hot, &p2code, &zeros);
        let none = |_: u64, _: u32| false;
        let got: Vec<(u64, u64, u64)> = plan(&pages, &none, &none, &none, 4)
            .iter()
            .map(|r| ((r.start - PAGE) / 4, (r.end - PAGE) / 4, r.samples))
            .collect();
        // f, then main (as f's caller: as hot as f) and its tail in page 2.
        assert_eq!(
            got,
            vec![(200, 231, 40), (1000, 1024, 40), (1024, 1034, 40)]
        );
    }

    #[test]
    fn an_indirect_target_is_a_function_and_padding_ends_one() {
        // A function at 300 that no BL names (reached by BR from a stub, as glibc's string
        // functions are), its loop 305..=320, its RET at 330, then padding (a zero word) and
        // another function up to a RET at 360.
        let code = page(&[
            bne(320, 305),
            (330, RET),
            (331, 0),
            (340, 0xd503_201f),
            (360, RET),
        ]);
        let mut counts = vec![0u32; 1024];
        counts[310] = 50;
        // Its head runs at each call (short strings): not a function left to its loop.
        counts[302] = 20;
        let spans = |entries: &[u64]| -> Vec<(u64, u64)> {
            let pages = [Page {
                addr: PAGE,
                code: &code,
                counts: &counts,
                slot: 7,
                entries,
            }];
            let none = |_: u64, _: u32| false;
            plan(&pages, &none, &none, &none, 4)
                .iter()
                .map(|r| ((r.start - PAGE) / 4, (r.end - PAGE) / 4))
                .collect()
        };
        // Unknown as a function: its loop alone.
        assert_eq!(spans(&[]), vec![(305, 321)]);
        // Named: the function, to its RET before the padding (not on to the next one's).
        assert_eq!(spans(&[PAGE + 1200]), vec![(300, 331)]);
    }

    #[test]
    fn a_hot_function_brings_the_caller_that_calls_it_in_a_loop() {
        // Start-up code calls main (100) once; main calls f (300) in its loop 105..=120; f's
        // loop 305..=320 is where the time goes.
        let code = page(&[
            bl(0, 100),
            (2, RET),
            bl(110, 300),
            bne(120, 105),
            (130, RET),
            bne(320, 305),
            (330, RET),
        ]);
        let mut counts = vec![0u32; 1024];
        counts[310] = 50;
        counts[112] = 3;
        let pages = [Page {
            addr: PAGE,
            code: &code,
            counts: &counts,
            slot: 7,
            entries: &[],
        }];
        let none = |_: u64, _: u32| false;
        let spans = |v: Vec<Region>| -> Vec<(u64, u64, u64, u32)> {
            v.iter()
                .map(|r| ((r.start - PAGE) / 4, (r.end - PAGE) / 4, r.samples, r.slot))
                .collect()
        };
        // f whole (not its loop), then main (as hot as what it lets run translated).
        assert_eq!(
            spans(plan(&pages, &none, &none, &none, 4)),
            vec![(300, 331, 50, 7), (100, 131, 50, 7)]
        );
        // f refused: its loop; main still calls it from its loop but f is no longer a
        // function region, so main stays out.
        let refused = |s: u64, _: u32| s == PAGE + 1200;
        assert_eq!(
            spans(plan(&pages, &refused, &none, &none, 4)),
            vec![(305, 321, 50, 7), (100, 131, 3, 7)]
        );
        // main dropped once: not chosen for itself, but still as f's caller.
        let dropped = |s: u64, _: u32| s == PAGE + 400;
        assert_eq!(
            spans(plan(&pages, &none, &dropped, &none, 4)),
            vec![(300, 331, 50, 7), (100, 131, 50, 7)]
        );
        // main refused (an instruction the translator leaves): its loop comes as f's caller,
        // as hot as f.
        assert_eq!(
            spans(plan(&pages, &dropped, &none, &none, 4)),
            vec![(300, 331, 50, 7), (105, 121, 50, 7)]
        );
    }

    #[test]
    fn a_hot_function_brings_the_callees_of_its_loops_but_not_their_other_callers() {
        // Start-up code calls main (100) and h (700) once; main calls f (300) in its loop
        // 105..=120; h calls f in its loop 705..=720 too.
        let code = page(&[
            bl(0, 100),
            bl(1, 700),
            (2, RET),
            bl(110, 300),
            bne(120, 105),
            (130, RET),
            (330, RET),
            bl(710, 300),
            bne(720, 705),
            (730, RET),
        ]);
        let plan_with =
            |f: u32, running: &dyn Fn(u64, u32) -> bool, dropped: &dyn Fn(u64, u32) -> bool| {
                let mut counts = vec![0u32; 1024];
                counts[112] = 64;
                counts[310] = f;
                counts[712] = 1;
                let pages = [Page {
                    addr: PAGE,
                    code: &code,
                    counts: &counts,
                    slot: 7,
                    entries: &[],
                }];
                plan(&pages, &|_, _| false, dropped, running, 3)
                    .iter()
                    .map(|r| ((r.start - PAGE) / 4, (r.end - PAGE) / 4, r.samples))
                    .collect::<Vec<_>>()
            };
        let none = |_: u64, _: u32| false;
        // f runs 1/32 of main's time: it comes with main, as hot as main, and h (f's other
        // caller) only for its own sample.
        assert_eq!(
            plan_with(2, &none, &none),
            vec![(100, 131, 64), (300, 331, 64), (700, 731, 1)]
        );
        // Less: f is chosen for its own sample, and then brings its callers.
        assert_eq!(
            plan_with(1, &none, &none),
            vec![(100, 131, 64), (300, 331, 1), (700, 731, 1)]
        );
        // main dropped, f installed and unsampled (fast code is seldom sampled): f counts as
        // hot, and brings main back as its caller.
        let main_dropped = |s: u64, _: u32| s == PAGE + 400;
        let f_running = |s: u64, _: u32| s == PAGE + 1200;
        assert_eq!(
            plan_with(0, &f_running, &main_dropped),
            vec![(300, 331, 1), (100, 131, 64), (700, 731, 1)]
        );
        // Not installed: main stays out (its loop alone is a region of its own).
        assert_eq!(
            plan_with(0, &none, &main_dropped),
            vec![(105, 121, 64), (700, 731, 1)]
        );
    }

    #[test]
    fn a_function_whose_time_is_in_loops_that_call_nothing_is_left_to_them() {
        // Start-up code calls main (100) once; main's loop 110..=120 calls nothing, its loop
        // 140..=150 calls g (300) unless `call` is false.
        let plan_with =
            |call: bool, counts_at: &[(usize, u32)], dropped: &dyn Fn(u64, u32) -> bool| {
                let mut w = vec![
                    bl(0, 100),
                    (2, RET),
                    bne(120, 110),
                    bne(150, 140),
                    (160, RET),
                    (310, RET),
                ];
                if call {
                    w.push(bl(145, 300));
                }
                let code = page(&w);
                let mut counts = vec![0u32; 1024];
                for &(i, c) in counts_at {
                    counts[i] = c;
                }
                let pages = [Page {
                    addr: PAGE,
                    code: &code,
                    counts: &counts,
                    slot: 0,
                    entries: &[],
                }];
                plan(&pages, &|_, _| false, dropped, &|_, _| false, 4)
                    .iter()
                    .map(|r| ((r.start - PAGE) / 4, (r.end - PAGE) / 4))
                    .collect::<Vec<_>>()
            };
        let none = |_: u64, _: u32| false;
        // The time in the first loop: the loop, not main.
        assert_eq!(plan_with(true, &[(115, 40)], &none), vec![(110, 121)]);
        // In both loops, one of which calls: main whole.
        assert_eq!(
            plan_with(true, &[(115, 40), (142, 20)], &none),
            vec![(100, 161)]
        );
        // The time in the first loop, but g (called from the other) has run: main whole, and
        // g with it.
        assert_eq!(
            plan_with(true, &[(115, 40), (305, 2)], &none),
            vec![(100, 161), (300, 311)]
        );
        // In both loops, neither calling: the loops.
        assert_eq!(
            plan_with(false, &[(115, 40), (142, 20)], &none),
            vec![(110, 121), (140, 151)]
        );
        // A tenth of the time outside the loops: main whole.
        assert_eq!(
            plan_with(false, &[(115, 40), (130, 5)], &none),
            vec![(100, 161)]
        );
        // The loop dropped (it bounced): main whole.
        let loop_dropped = |s: u64, _: u32| s == PAGE + 440;
        assert_eq!(
            plan_with(false, &[(115, 40)], &loop_dropped),
            vec![(100, 161)]
        );
    }

    #[test]
    fn a_pick_puts_a_function_in_place_of_its_installed_loop() {
        let r = at;
        let spans = |installed: &[Region], hot: Vec<Region>, samples: u64| -> Vec<(u64, u64)> {
            Policy::new(Mode::Auto)
                .pick(samples, samples, hot, installed)
                .unwrap()
                .iter()
                .map(|x| ((x.start - PAGE) / 4, (x.end - PAGE) / 4))
                .collect()
        };
        // main (holding the installed loop 110..=120) with its callee f, hotter now.
        let installed = [r(110, 121, 0), r(500, 520, 0)];
        let hot = vec![
            r(300, 311, 60),
            r(100, 161, 60),
            r(110, 121, 5),
            r(500, 520, 5),
        ];
        assert_eq!(
            spans(&installed, hot, 130),
            vec![(500, 520), (300, 311), (100, 161)]
        );
        // A full set, every other region no longer sampled: a hot region takes the first of
        // those (10..20, with the one sample an installed region is granted).
        let full = |uses: u64| -> Vec<Region> {
            (0..MAX_REGIONS as u64)
                .map(|k| r(10 + 20 * k, 20 + 20 * k, if k == 0 { uses } else { 0 }))
                .collect()
        };
        let spans_of = |v: &[Region]| -> Vec<(u64, u64)> {
            v.iter()
                .map(|x| ((x.start - PAGE) / 4, (x.end - PAGE) / 4))
                .chain([(300, 311)])
                .collect()
        };
        let mut hot = vec![r(300, 311, 90), r(10, 20, 1)];
        hot.extend(
            full(0)
                .into_iter()
                .skip(1)
                .step_by(2)
                .map(|x| Region { samples: 20, ..x }),
        );
        let installed = full(0);
        let got = spans(&installed, hot.clone(), 131);
        assert_eq!(got, spans_of(&installed[1..]));
        // Of those, the one lanes ran least in after entering it makes room: main (10..20,
        // where lanes come back from interpreted calls) stays, the next unsampled one goes.
        let installed = full(9000);
        let got = spans(&installed, hot, 131);
        let mut want = installed.clone();
        want.remove(2);
        assert_eq!(got, spans_of(&want));
    }

    #[test]
    fn a_long_region_needs_a_larger_share_of_the_profile() {
        let r = at;
        // 27 samples: an eighth is 3. A short region with 4 is taken; one of 171 instructions
        // (a start-up memset) with 4 is not, with 8 it is; the hot one always.
        let pick = |mode: Mode, long: u64| -> Vec<u64> {
            let hot = vec![r(300, 400, 19), r(500, 510, 4), r(0, 171, long)];
            Policy::new(mode)
                .pick(27, 27, hot, &[])
                .unwrap()
                .iter()
                .map(|x| (x.start - PAGE) / 4)
                .collect()
        };
        assert_eq!(pick(Mode::Auto, 4), vec![300, 500]);
        assert_eq!(pick(Mode::Auto, 8), vec![300, 500, 0]);
        // The tests' mode takes whatever has samples.
        assert_eq!(pick(Mode::Translate, 1), vec![300, 500, 0]);
    }

    #[test]
    fn a_run_s_end_adds_the_regions_a_plan_would_have_taken_beside_the_set() {
        let r = at;
        let long = std::time::Duration::from_millis(400);
        // 26 samples: an eighth is 3. Installed: the sieve's two loops. A function holding
        // one of them is no addition; calloc's memset loop (4) is; a loop of 1 sample is not.
        let installed = [r(300, 342, 0), r(400, 415, 0)];
        let hot = vec![r(250, 392, 8), r(600, 607, 4), r(700, 710, 1)];
        let add = |p: &Policy, ran, weight| -> Vec<u64> {
            p.at_end(ran, false, weight, &hot, &installed)
                .iter()
                .map(|x| (x.start - PAGE) / 4)
                .collect()
        };
        let auto = Policy::new(Mode::Auto);
        assert_eq!(add(&auto, long, 26), vec![600]);
        // Not from a run too short or too thinly sampled to plan, nor in other modes.
        let short = std::time::Duration::from_millis(100);
        assert!(add(&auto, short, 26).is_empty());
        // Unless it started from a saved plan.
        assert_eq!(auto.at_end(short, true, 26, &hot, &installed).len(), 1);
        assert!(add(&auto, long, 20).is_empty());
        assert!(add(&Policy::new(Mode::Translate), long, 26).is_empty());
        // Nor past the pipeline's slots.
        let full: Vec<Region> = (0..MAX_REGIONS as u64).map(|k| r(k, k + 1, 0)).collect();
        assert!(auto.at_end(long, false, 26, &hot, &full).is_empty());
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
