//! The translation tier's side of the machine: a pipeline of translated regions
//! ([`crate::tier`], [`crate::gpu::shader::tier_source`]), compiled on a worker thread and
//! swapped in at a submit boundary, whose dispatch follows each of the interpreter's. Lanes
//! reach it by yielding at region entries, which the host marks in the shared decoded pages.

use super::{
    Machine, MachineConfig, INSNS_PER_PAGE, STATE_WORDS, S_CODE_BASE, S_INDIRECT, S_PC, S_PROBE,
    S_TIERED, S_TIER_INSNS, S_TIER_RUNS, S_UNALIGNED, TIER_SLOTS,
};
use crate::gpu::shader::Tier;
use crate::gpu::GpuError;
use crate::isa::form::f;
use crate::isa::DECODED_WORDS;
use crate::tier::translate::{self, Source, Target, Translation};
use crate::tier::Region;
use std::ops::Range;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use web_time::Instant;

/// Held around anything that makes the driver compile: the tier's warm-up and a pipeline's
/// first dispatch.
static LLVM: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(super) fn llvm_lock() -> std::sync::MutexGuard<'static, ()> {
    LLVM.lock().unwrap_or_else(|e| e.into_inner())
}

/// Worker threads still compiling: the command line exits without running the C library's exit
/// handlers while any is (Mesa's, run under a compile, crash the process).
static WORKERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether a translation tier compile is still under way on a worker thread.
pub fn compiling() -> bool {
    WORKERS.load(std::sync::atomic::Ordering::SeqCst) > 0
}

/// Waits (up to `limit`) for the compiles workers still run after their runs ended; how long
/// it waited. A benchmark's next measurement must not share the cores with them.
pub fn settle(limit: std::time::Duration) -> std::time::Duration {
    let t = std::time::Instant::now();
    while compiling() && t.elapsed() < limit {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    t.elapsed()
}

/// A second device on the adapter, made once per machine by the first worker that needs it.
type Twin = Arc<OnceLock<Option<(wgpu::Device, wgpu::Queue)>>>;

/// Tier dispatches with work after which an installed region is judged (a window), and the
/// instructions per such dispatch below which it is dropped: about what the interpreter runs
/// in the time of the two dispatches an entry costs on lavapipe.
const UNPROFITABLE_RUNS: u64 = 64;
pub const MIN_INSNS_PER_RUN: u64 = 400;
/// Times a translated access must be seen failing for its alignment before it is translated
/// for any alignment.
const UNALIGNED_HITS: u32 = 4;
/// Times indirect branches must be seen leaving for a target (counted at the last target of
/// each submit's) before the planner takes the target for a function entry. Every one seen
/// (glibc's start-up calls many functions once through pointers) gave the tests' mode a new
/// set of start-up regions at each plan, a synchronous compile each: glibc's sha256 reached its compress only at its end (0.6%
/// translated, 96.6% from 16 on). A string function called in a loop passes it within a few
/// submits.
const INDIRECT_HITS: u32 = 16;
/// Recompiles of a running set for such accesses per run, at most (each compiles it whole).
const MAX_SITE_SETS: u32 = 3;

/// Longest a probe weighs regions before judging on what it counted (regions entered seldom
/// and running little are not worth more).
const PROBE_MAX: Duration = Duration::from_millis(600);

/// Regions weighed in the interpreter before their compile ([`Machine::weigh_regions`]): it
/// counts the steps into them from other code (entries, each a dispatch pair once translated)
/// and the steps inside them. Compiling first and dropping later cost every real program
/// (lua, gawk, xz) a compile and a stretch of bouncing per run: glibc's small functions called
/// from interpreted code.
struct Probe {
    /// The set to compile with the weighed regions that pass (the installed ones and the new).
    set: Vec<Region>,
    /// The new regions, with the entries and steps counted in each (by the last entry of a
    /// lane's submit: the counters are one per lane).
    new: Vec<(Region, u64, u64)>,
    /// Entries and steps into all of them, and the most lanes that entered in one submit.
    entries: u64,
    steps: u64,
    lanes: u64,
    since: Instant,
}

/// Whether `steps` over `entries` pay for the dispatches the entries would cost.
fn pays(entries: u64, steps: u64) -> bool {
    steps >= entries * MIN_INSNS_PER_RUN
}

/// A probe's verdict on the weighed regions (each with the entries and steps counted in it;
/// `entries` and `steps` in all): those to leave out for their short entries, or None where
/// no lane came in at all (the set is left out unjudged: its phase is over). A region that
/// counted nothing of its own, reached only from another weighed one (sha256's compress,
/// called from main's loop), goes with the whole set.
fn verdict(new: &[(Region, u64, u64)], entries: u64, steps: u64) -> Option<Vec<Region>> {
    if entries == 0 && steps == 0 {
        return None;
    }
    let whole = pays(entries, steps);
    Some(
        new.iter()
            .filter(|(_, e, n)| {
                !(if *e > 0 || *n > 0 {
                    pays(*e, *n)
                } else {
                    whole
                })
            })
            .map(|(r, ..)| r.clone())
            .collect(),
    )
}

/// Takes back from `out` the regions the rest of `set` calls (`calls`: where the BLs of some
/// regions go), whatever their own entries (memcpy, called from interpreted printf helpers and
/// from a translated loop): left out, the loop would leave translated code at each call. The
/// set's own calls count as no entries.
fn keep_called(
    out: &mut Vec<Region>,
    set: &[Region],
    calls: impl Fn(&[&Region]) -> std::collections::HashSet<u64>,
) {
    loop {
        let kept: Vec<&Region> = set
            .iter()
            .filter(|r| !out.iter().any(|o| (o.start, o.slot) == (r.start, r.slot)))
            .collect();
        let called = calls(&kept);
        let n = out.len();
        out.retain(|o| !called.contains(&o.start));
        if out.len() == n {
            return;
        }
    }
}

/// The installed regions and their pipeline.
struct Installed {
    translations: Vec<Translation>,
    pipe: wgpu::ComputePipeline,
    /// Compiled with [`crate::gpu::shader::Tier::page_cache`].
    page_cache: bool,
    /// Per translation: dropped since the install (its entries unmarked: lanes no longer come
    /// from the interpreter to it, while translated callers still run it in-shader).
    off: Vec<bool>,
}

/// A compile on the worker thread.
struct Pending {
    translations: Vec<Translation>,
    page_cache: bool,
    /// The complete shader (for a compile that outlives the run: [`Machine::pending_job`]).
    src: Arc<String>,
    rx: Receiver<(Result<wgpu::ComputePipeline, GpuError>, Duration)>,
}

/// The translation tier's pipeline.
#[derive(Default)]
pub struct TierPipes {
    installed: Option<Installed>,
    pending: Option<Pending>,
    probe: Option<Probe>,
    /// Compile on the caller's thread (the forced mode of tests: translations run from the next
    /// submit on).
    pub sync: bool,
    /// The keys of the run's saved plans: a worker's warm-up process marks them compiled where
    /// they name its set ([`crate::tier::deferred::warm_detached`]).
    pub plan_keys: Vec<String>,
    /// A compile failed: the guests stay interpreted, and no more are tried.
    pub failed: bool,
    /// Take regions whatever they hold (the fuzzer's blocks run once each: nothing bounces).
    pub force: bool,
    /// Regions the translator could not take whole (start, slot): not chosen again.
    pub refused: std::collections::HashSet<(u64, u32)>,
    /// The page cache for the next compiles, where a saved plan names the one its pipeline
    /// was compiled with (else it follows the instance count): Mesa's cache then serves the
    /// pipeline whatever this run's count (sha256's set, compiled by a 64-instance run, ran
    /// from the start of a 1-instance one instead of compiling for longer than it ran).
    pub page_cache: Option<bool>,
    /// The guests the run starts (`--instances`): their count alone decides the page cache a
    /// pipeline wants ([`Machine::wanted_page_cache`]).
    pub guests: usize,
    /// Regions dropped as unprofitable once (start, slot): chosen again only with a region
    /// they call (the bouncing may have been that callee's); dropped again, they are refused.
    pub dropped_once: std::collections::HashSet<(u64, u32)>,
    /// The address ranges of the regions dropped in this run (for the saved plan).
    pub dropped_ranges: Vec<(u64, u64)>,
    /// Regions earlier runs dropped (start, end, slot), from the saved plan: treated as
    /// dropped once, except while they hold a quarter of the profile (see
    /// [`Machine::forgiven`]).
    pub earlier_drops: Vec<(u64, u64, u32)>,
    /// Per installed region: tier dispatches entered by it and the instructions they ran,
    /// since the last install.
    runs: [u64; TIER_SLOTS],
    run_insns: [u64; TIER_SLOTS],
    /// Per installed region: the instructions run by the tier dispatches it was entered by,
    /// since the install (not reset by the drop rule's windows).
    entered_insns: [u64; TIER_SLOTS],
    /// Per installed region: the most lanes that entered it in one submit, this window. The
    /// window is that many times [`UNPROFITABLE_RUNS`] entries: as many dispatches whatever
    /// the instance count (64 instances entering main once each at their start, and leaving at
    /// its first call, are one dispatch's worth, not a window).
    lanes: [u64; TIER_SLOTS],
    /// Regions were dropped since the run loop last asked.
    pub dropped: bool,
    /// A pipeline was swapped in that has not been dispatched yet.
    pub fresh: bool,
    /// The accesses translations take at any alignment (pcs, sorted): those seen failing for
    /// their alignment ([`Machine::take_tiered`]), or a saved plan's.
    pub sites: Vec<u64>,
    /// Per access pc: the times it failed for its alignment in translated code (this run).
    unaligned: std::collections::BTreeMap<u64, u32>,
    /// Recompiles for such accesses this run.
    site_sets: u32,
    /// Accesses seen failing for their alignment never recompile the running set (the
    /// fuzzer's forced blocks).
    pub fixed_sites: bool,
    /// Targets of indirect branches (not returns) that left translated code, with their
    /// count: function entries no BL names, for the planner ([`crate::tier::Page::entries`]).
    indirect: std::collections::BTreeMap<u64, u32>,
    twin: Twin,
}

impl TierPipes {
    /// The pipeline of translated regions, once one is built.
    pub fn pipeline(&self) -> Option<&wgpu::ComputePipeline> {
        self.installed.as_ref().map(|i| &i.pipe)
    }

    /// The regions being compiled, else those installed and not dropped.
    fn current(&self) -> Vec<&translate::Translation> {
        match (&self.pending, &self.installed) {
            (Some(p), _) => p.translations.iter().collect(),
            (None, Some(_)) => self.live(),
            _ => Vec::new(),
        }
    }

    /// The installed regions not dropped.
    fn live(&self) -> Vec<&translate::Translation> {
        self.installed.as_ref().map_or(Vec::new(), |i| {
            i.translations
                .iter()
                .zip(&i.off)
                .filter(|(_, &off)| !off)
                .map(|(t, _)| t)
                .collect()
        })
    }

    /// The regions installed or being compiled; as `samples`, the instructions run by the
    /// tier dispatches an installed region was entered by since its install (the pick's use
    /// of it: a caller that lanes come back to runs its callees too; 0 while compiling).
    pub fn regions(&self) -> Vec<crate::tier::Region> {
        let region = |t: &translate::Translation, samples| crate::tier::Region {
            start: t.start,
            end: t.end,
            samples,
            slot: t.slot,
        };
        match (&self.pending, &self.installed) {
            // Beyond the counted slots (the tests' forced sets) a region shares the last.
            (None, Some(i)) => i
                .translations
                .iter()
                .enumerate()
                .filter(|&(k, _)| !i.off[k])
                .map(|(k, t)| region(t, self.entered_insns[k.min(TIER_SLOTS - 1)]))
                .collect(),
            _ => self.current().iter().map(|t| region(t, 0)).collect(),
        }
    }

    /// Whether installed region `k` has had at least `runs` entries in the judging window and
    /// ran too few instructions per entry (its lanes bounce between the dispatches).
    fn short_entries(&self, k: usize, runs: u64) -> bool {
        self.runs[k] >= runs * self.lanes[k].max(1)
            && self.run_insns[k] < self.runs[k] * MIN_INSNS_PER_RUN
    }

    /// The installed regions not dropped, by their counters' index.
    fn installed_slots(&self) -> Vec<usize> {
        self.installed.as_ref().map_or(Vec::new(), |i| {
            (0..i.translations.len().min(TIER_SLOTS))
                .filter(|&k| !i.off[k])
                .collect()
        })
    }

    /// The address ranges of the regions installed (compiled and running) and not dropped.
    pub fn installed_ranges(&self) -> Vec<(u64, u64)> {
        self.live().iter().map(|t| (t.start, t.end)).collect()
    }

    /// The address ranges of every region the installed pipeline holds, dropped or not: the
    /// set Mesa's cache has compiled.
    pub fn pipeline_ranges(&self) -> Vec<(u64, u64)> {
        self.installed.as_ref().map_or(Vec::new(), |i| {
            i.translations.iter().map(|t| (t.start, t.end)).collect()
        })
    }

    /// Of the installed regions not dropped, those not in `ranges`: the instructions lanes ran
    /// after entering them since their install, together.
    pub fn entered_outside(&self, ranges: &[(u64, u64)]) -> u64 {
        let Some(i) = &self.installed else { return 0 };
        self.installed_slots()
            .into_iter()
            .filter(|&k| !ranges.contains(&(i.translations[k].start, i.translations[k].end)))
            .map(|k| self.entered_insns[k])
            .sum()
    }

    /// Whether an installed region bounces over a full window (the drop rule's judgement, at a
    /// run's end): no plan to save.
    pub fn bouncing(&self) -> bool {
        self.installed_slots()
            .into_iter()
            .any(|k| self.short_entries(k, UNPROFITABLE_RUNS))
    }

    /// The address ranges of the regions being compiled, else of those installed.
    pub fn ranges(&self) -> Vec<(u64, u64)> {
        self.current().iter().map(|t| (t.start, t.end)).collect()
    }

    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Regions are being weighed before a compile ([`Machine::weigh_regions`]).
    pub fn probing(&self) -> bool {
        self.probe.is_some()
    }

    /// The accesses the set being compiled (else the installed set less the dropped regions: the
    /// set [`TierPipes::ranges`] names) takes at any alignment.
    pub fn current_sites(&self) -> Vec<u64> {
        let ts: Vec<Translation> = self.current().into_iter().cloned().collect();
        sites_of(&ts)
    }

    /// The accesses the installed pipeline (the set Mesa's cache has compiled) takes at any
    /// alignment.
    pub fn installed_sites(&self) -> Vec<u64> {
        self.installed
            .as_ref()
            .map_or(Vec::new(), |i| sites_of(&i.translations))
    }

    /// The indirect branch targets seen often enough to be function entries (sorted).
    pub fn indirect_entries(&self) -> Vec<u64> {
        self.indirect
            .iter()
            .filter(|(_, &n)| n >= INDIRECT_HITS)
            .map(|(&pc, _)| pc)
            .collect()
    }

    /// The page cache of the installed pipeline ([`Installed::page_cache`]), if one is.
    pub fn installed_page_cache(&self) -> Option<bool> {
        self.installed.as_ref().map(|i| i.page_cache)
    }
}

/// The sites of a set of translations, sorted.
fn sites_of(ts: &[Translation]) -> Vec<u64> {
    let mut v: Vec<u64> = ts.iter().flat_map(|t| t.sites.iter().copied()).collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl Machine {
    /// The set being compiled, as a job a process of its own can finish (without the plan's
    /// keys: [`crate::tier::deferred`]).
    pub fn pending_job(&self) -> Option<crate::tier::deferred::Job> {
        self.tier
            .pending
            .as_ref()
            .map(|p| self.job(p.page_cache, &p.translations, &p.src))
    }

    fn job(&self, page_cache: bool, ts: &[Translation], src: &str) -> crate::tier::deferred::Job {
        crate::tier::deferred::Job {
            adapter: self.gpu.info.name.clone(),
            backend: format!("{:?}", self.gpu.info.backend),
            int64: self.gpu.int64,
            pool: self.mem.len() as u32,
            checked: self.cfg.checked,
            page_cache,
            ranges: ts.iter().map(|t| (t.start, t.end)).collect(),
            keys: Vec::new(),
            src: src.to_string(),
        }
    }

    /// Region `r` translated as the `n`th function of a pipeline, with its page's address,
    /// bytes and decode (None where that decoded page is gone).
    fn translate_one(
        &self,
        n: usize,
        r: &Region,
        target: Target,
    ) -> Option<(Translation, u64, &[u8], Vec<crate::isa::Decoded>)> {
        let ((page, bytes), _) = self.code_pages.iter().find(|(_, &s)| s == r.slot)?;
        let code = crate::isa::decode_page(bytes, *page);
        let src = Source {
            page: *page,
            code: &code,
            slot: r.slot,
            start: r.start,
            end: r.end,
            unaligned: &self.tier.sites,
        };
        let t = translate::translate(n, &src, target);
        Some((t, *page, bytes, code))
    }

    /// Adds to the set running now the regions of `extra` that translate whole, hold a loop
    /// (the interpreter yields into no other) and were neither refused nor dropped, and starts
    /// compiling the new set; false where none qualifies (a run's end: [`Policy::at_end`]).
    ///
    /// [`Policy::at_end`]: crate::tier::Policy::at_end
    pub fn translate_more(&mut self, extra: &[Region]) -> Result<bool, GpuError> {
        if self.tier.failed || self.tier.busy() {
            return Ok(false);
        }
        let target = Target {
            native64: self.cfg.prelude == crate::gpu::shader::Prelude::U64,
        };
        let dropped = |r: &Region| {
            self.tier.refused.contains(&(r.start, r.slot))
                || self.tier.dropped_once.contains(&(r.start, r.slot))
                || self
                    .tier
                    .earlier_drops
                    .iter()
                    .any(|&(s, e, slot)| slot == r.slot && s < r.end && r.start < e)
        };
        let more: Vec<Region> = extra
            .iter()
            .filter(|r| !dropped(r))
            .filter(|r| {
                self.translate_one(0, r, target)
                    .is_some_and(|(t, ..)| t.loops && t.translated as u64 == r.instructions())
            })
            .cloned()
            .collect();
        if more.is_empty() {
            return Ok(false);
        }
        let mut set = self.tier.regions();
        set.extend(more);
        // The running set's page cache (the instance count's where none runs): the lanes have
        // exited by now, and the next run installs it with the page cache the plan records.
        let cache = self
            .tier
            .installed_page_cache()
            .unwrap_or_else(|| self.wanted_page_cache());
        let keep = self.tier.page_cache.replace(cache);
        let r = self.translate_regions(&set);
        self.tier.page_cache = keep;
        r?;
        Ok(self.tier.busy())
    }

    /// Translates `regions` and starts compiling their pipeline (on the worker thread, or here
    /// when the tier is synchronous); they run from the submit after it is built. Regions whose
    /// decoded page is gone are skipped.
    pub fn translate_regions(&mut self, regions: &[Region]) -> Result<(), GpuError> {
        let target = Target {
            native64: self.cfg.prelude == crate::gpu::shader::Prelude::U64,
        };
        let mut translations = Vec::new();
        // In address order: the same regions make the same shader text, which Mesa's disk
        // cache then compiles once for every later run.
        let mut regions = regions.to_vec();
        regions.sort_by_key(|r| (r.start, r.slot));
        for r in &regions {
            // Numbered by the translations kept so far, so the functions are dense.
            let Some((t, page, bytes, code)) = self.translate_one(translations.len(), r, target)
            else {
                continue;
            };
            // A region with an instruction the translator leaves to the interpreter would send
            // its lanes back and forth between two dispatches on every pass.
            if self.tier.force || t.translated as u64 == r.instructions() {
                translations.push(t);
            } else {
                if crate::tier::debug() {
                    let first = ((r.start - page) / 4) as usize;
                    let why = code[first..((r.end - page) / 4) as usize]
                        .iter()
                        .enumerate()
                        .find(|(_, d)| !translate::takes(d, target))
                        .map(|(j, _)| {
                            let pc = r.start + 4 * j as u64;
                            let at = (pc - page) as usize;
                            let w = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
                            format!(
                                "{pc:#x}: {w:08x} {}",
                                crate::isa::lookup(w, pc).map_or("?", |(e, _)| e.name)
                            )
                        })
                        .unwrap_or_default();
                    eprintln!("garm: tier: refused {:#x}..{:#x} at {why}", r.start, r.end);
                }
                self.stats.tier_refused += 1;
                self.tier.refused.insert((r.start, r.slot));
            }
        }
        // Nothing to do, or the running set again (the rest refused).
        let same = |ranges: Vec<(u64, u64)>| {
            ranges.len() == translations.len()
                && translations
                    .iter()
                    .zip(&ranges)
                    .all(|(t, r)| (t.start, t.end) == *r)
        };
        let page_cache = match crate::tier::forced_page_cache() {
            Some(f) => f,
            None => self
                .tier
                .page_cache
                .unwrap_or_else(|| self.wanted_page_cache()),
        };
        let same_sites = || {
            let live = self.tier.live();
            live.len() == translations.len()
                && live
                    .iter()
                    .zip(&translations)
                    .all(|(a, b)| a.sites == b.sites)
        };
        if translations.is_empty()
            || (self.tier.pending.is_none()
                && same(self.tier.installed_ranges())
                && same_sites()
                && self.tier.installed_page_cache() == Some(page_cache))
        {
            return Ok(());
        }
        let tier = Tier {
            functions: translations.iter().map(|t| t.wgsl.clone()).collect(),
            ranges: translations.iter().map(|t| (t.start, t.end)).collect(),
            regs: translations
                .iter()
                .flat_map(|t| &t.regs)
                .fold(0, |m, r| m | 1 << r),
            fp: translations.iter().any(|t| t.fp),
            page_cache,
        };
        self.stats.tier_translated += translations.len() as u64;
        let (tx, rx) = channel();
        let device = self.gpu.device.clone();
        let cfg: MachineConfig = self.cfg;
        let bgl = self.bgl.clone();
        let pool = (self.mem.len() as u32, self.frame_shift);
        let src = Arc::new(crate::gpu::shader::tier_source(
            cfg.prelude,
            cfg.abi,
            pool.0,
            pool.1,
            &tier,
        ));
        if let Some(dir) = std::env::var_os("GARM_TIER_DUMP") {
            for t in &translations {
                let path = std::path::Path::new(&dir).join(format!("region-{:x}.wgsl", t.start));
                let _ = std::fs::write(path, &t.wgsl);
            }
            // The whole pipeline as a job `garm tier-compile` compiles alone (it deletes the
            // file it ran: compile a copy), to time the driver's compile of a set.
            let mut job = self.job(page_cache, &translations, &src);
            job.keys.push("dump".into());
            let _ = std::fs::write(std::path::Path::new(&dir).join("tier-job"), job.format());
        }
        let text = src.clone();
        let sync = self.tier.sync;
        let keys = if self.tier.plan_keys.is_empty() {
            // (A job names a plan; this one none.)
            vec!["warm-up".to_string()]
        } else {
            self.tier.plan_keys.clone()
        };
        let warm_job = (!sync).then(|| crate::tier::deferred::Job {
            keys,
            ..self.job(page_cache, &translations, &src)
        });
        let twin = (!sync).then(|| (self.tier.twin.clone(), self.gpu.adapter.clone()));
        let limits = self.gpu.limits.clone();
        let build = move || {
            let _busy = Busy::new();
            let t0 = Instant::now();
            #[cfg(target_arch = "wasm32")]
            let _ = (twin, &limits, warm_job);
            #[cfg(not(target_arch = "wasm32"))]
            {
                // In a process of its own where Mesa's disk cache can hand its compile over;
                // else on the twin device, under the LLVM lock.
                let detached = warm_job
                    .as_ref()
                    .is_some_and(crate::tier::deferred::warm_detached);
                if let Some((twin, adapter)) = twin.filter(|_| !detached) {
                    let t = twin.get_or_init(|| {
                        crate::gpu::device::request(&adapter, device.features(), &limits).ok()
                    });
                    if let Some((d, q)) = t {
                        // A failed warm-up only means the first dispatch compiles.
                        let _ = warm(d, q, &text, cfg.checked, pool.0);
                    }
                }
            }
            let warmed = t0.elapsed();
            let p = Machine::pipeline_from_source(&device, (*text).clone(), cfg.checked, &bgl, 0);
            if crate::tier::debug() {
                eprintln!(
                    "garm: tier: built in {:.2} s (warm-up {:.2} s), at {:.2} s",
                    t0.elapsed().as_secs_f64(),
                    warmed.as_secs_f64(),
                    crate::tier::elapsed()
                );
            }
            let built = p.is_ok();
            // The run is over (a compile at a run's end, in a process that goes on: `garm
            // bench`, an embedder): its plan is marked compiled here.
            if tx.send((p, t0.elapsed())).is_err() && built {
                crate::tier::deferred::orphaned(&text);
            }
        };
        // In a browser, wgpu's objects stay on their thread (the web runs interpreted).
        #[cfg(target_arch = "wasm32")]
        build();
        #[cfg(not(target_arch = "wasm32"))]
        if sync {
            build();
        } else {
            std::thread::spawn(build);
        }
        self.tier.pending = Some(Pending {
            translations,
            rx,
            page_cache,
            src,
        });
        self.poll_tier();
        Ok(())
    }

    /// Swaps in a pipeline the worker finished (at a submit boundary: the next dispatches run
    /// it), moving the entry marks from the old regions to the new; true if it did. A failed
    /// compile leaves the guests interpreted and is counted once.
    pub(crate) fn poll_tier(&mut self) -> bool {
        let Some(p) = &self.tier.pending else {
            return false;
        };
        let Ok((built, took)) = p.rx.try_recv() else {
            return false;
        };
        let p = self.tier.pending.take().expect("pending");
        self.stats.tier_compile += took;
        match built {
            Ok(pipe) => {
                if let Some(old) = self.tier.installed.take() {
                    self.mark(&old.translations, false);
                }
                self.mark(&p.translations, true);
                if crate::tier::debug() {
                    let r: Vec<String> = p
                        .translations
                        .iter()
                        .map(|t| format!("{:#x}", t.start))
                        .collect();
                    eprintln!(
                        "garm: tier: swapped in {} (samples {}, {:.2} s)",
                        r.join(" "),
                        self.profile.samples,
                        crate::tier::elapsed()
                    );
                }
                self.stats.tier_swaps += 1;
                self.stats.tier_first_at.get_or_insert_with(Instant::now);
                self.stats.tier_regions = p
                    .translations
                    .iter()
                    .map(|t| (t.start, t.end, t.translated))
                    .collect();
                self.tier.installed = Some(Installed {
                    off: vec![false; p.translations.len()],
                    translations: p.translations,
                    pipe,
                    page_cache: p.page_cache,
                });
                self.tier.runs = [0; TIER_SLOTS];
                self.tier.run_insns = [0; TIER_SLOTS];
                self.tier.entered_insns = [0; TIER_SLOTS];
                self.tier.lanes = [0; TIER_SLOTS];
                self.tier.fresh = true;
                true
            }
            Err(e) => {
                self.stats.tier_failed += 1;
                self.tier.failed = true;
                if crate::tier::debug() {
                    eprintln!("garm: a translation did not compile: {e}");
                }
                false
            }
        }
    }

    /// Sets or clears the entry marks of translated regions in their decoded pages (shared by
    /// every process running that code; slots never change their bytes).
    fn mark(&mut self, ts: &[Translation], on: bool) {
        let force = self.tier.force;
        for t in ts.iter().filter(|t| t.loops || force) {
            let page = t.start & !0xfff;
            for &(pc, w1) in &t.entries {
                let i = t.slot as u64 * INSNS_PER_PAGE + (pc - page) / 4;
                let w = if on { w1 | f::TIER } else { w1 };
                let off = (i * DECODED_WORDS as u64 + 1) * 4;
                self.gpu
                    .queue
                    .write_buffer(&self.dec, off, bytemuck::bytes_of(&w));
            }
        }
    }

    /// The page cache ([`crate::gpu::shader::Tier::page_cache`]) this run's pipelines want: on
    /// where its guests fill a SIMD batch (at one lane per batch deferring was ~5% slower),
    /// unless GARM_TIER_PAGE_CACHE forces it. One answer for the whole run, from the guests it
    /// starts, not the processes alive at a pick: an answer that changed mid-run recompiled
    /// the running ranges for nothing and flipped the saved plan's setting from run to run.
    pub fn wanted_page_cache(&self) -> bool {
        crate::tier::forced_page_cache()
            .unwrap_or(self.tier.guests >= crate::gpu::layout::WORKGROUP as usize)
    }

    /// Adds the instructions each instance retired in translated code since the last submit,
    /// and counts the accesses that failed there for their alignment.
    pub(super) fn take_tiered(&mut self) -> Result<(), GpuError> {
        if self.tier.installed.is_none() {
            return Ok(());
        }
        for i in 0..self.instances() {
            let b = i * STATE_WORDS;
            let base = self.word64(i, S_CODE_BASE);
            let word = self.state[b + S_INDIRECT];
            if word != 0 {
                let target = (word & 0xff_ffff) as u64;
                let pc = base.wrapping_add(4 * target.saturating_sub(1));
                let n = self.tier.indirect.entry(pc).or_default();
                *n = n.saturating_add(word >> 24);
                self.state[b + S_INDIRECT] = 0;
                self.state_dirty = true;
            }
            let failed = self.state[b + S_UNALIGNED];
            if failed != 0 {
                let pc = base.wrapping_add(4 * self.state[b + S_UNALIGNED + 1] as u64);
                // (All the failures since the last read, at the last one's pc: a loop's
                // trips fail at the same load until it is translated for them.)
                let hits = self.tier.unaligned.entry(pc).or_default();
                *hits = hits.saturating_add(failed);
                self.state[b + S_UNALIGNED] = 0;
                self.state_dirty = true;
            }
        }
        if self.resite()? {
            return Ok(());
        }
        let mut lanes = [0u64; TIER_SLOTS];
        for i in 0..self.instances() {
            let b = i * STATE_WORDS;
            let n = self.state[b + S_TIERED] as u64 | (self.state[b + S_TIERED + 1] as u64) << 32;
            self.stats.tier_insns += n;
            for (k, lane) in lanes.iter_mut().enumerate() {
                let runs = self.state[b + S_TIER_RUNS + k] as u64;
                self.tier.runs[k] += runs;
                self.tier.run_insns[k] += self.state[b + S_TIER_INSNS + k] as u64;
                self.tier.entered_insns[k] += self.state[b + S_TIER_INSNS + k] as u64;
                *lane += (runs > 0) as u64;
            }
            let words = [
                S_TIERED..S_TIERED + 2,
                S_TIER_RUNS..S_TIER_INSNS + TIER_SLOTS,
            ];
            for w in words {
                if self.state[b + w.start..b + w.end].iter().any(|&x| x != 0) {
                    self.state[b + w.start..b + w.end].fill(0);
                    self.state_dirty = true;
                }
            }
        }
        // Each entry costs a dispatch of each pipeline (tens of microseconds on lavapipe): a
        // region whose entries run fewer instructions than the interpreter would in that time
        // loses. It is dropped (once: it may come back as a caller; twice: refused), and the
        // run loop plans again.
        for (w, l) in self.tier.lanes.iter_mut().zip(lanes) {
            *w = (*w).max(l);
        }
        // Only while the set as a whole runs short entries: a region also entered from
        // interpreted code (memcpy, from printf's helpers) that translated callers run
        // in-shader costs little beside them, and dropping it would make them bounce.
        let all = self.tier.installed_slots();
        let (runs, insns) = all.iter().fold((0, 0), |(r, i), &k| {
            (r + self.tier.runs[k], i + self.tier.run_insns[k])
        });
        let bad: Vec<usize> = if insns >= runs * MIN_INSNS_PER_RUN {
            Vec::new()
        } else {
            all.into_iter()
                .filter(|&k| self.tier.short_entries(k, UNPROFITABLE_RUNS))
                .collect()
        };
        // Judged over windows of entries: a region that ran long at first (main's fill loop)
        // and then bounces (main's loop calling an interpreted compress) is caught.
        for k in 0..TIER_SLOTS {
            let window = UNPROFITABLE_RUNS * self.tier.lanes[k].max(1);
            if self.tier.runs[k] >= window && !bad.contains(&k) {
                self.tier.runs[k] = 0;
                self.tier.run_insns[k] = 0;
                self.tier.lanes[k] = 0;
            }
        }
        if bad.is_empty() || self.tier.force {
            return Ok(());
        }
        // The dropped regions' entries are unmarked and the rest run on: taking the whole set
        // out left the guests interpreted until a new set compiled (glibc's sha256 lost its
        // main loop and compress for 2 s each time check()'s short loop was dropped).
        let installed = self.tier.installed.as_mut().expect("installed");
        let gone: Vec<Translation> = bad
            .iter()
            .map(|&k| {
                installed.off[k] = true;
                installed.translations[k].clone()
            })
            .collect();
        self.mark(&gone, false);
        if self.tier.live().is_empty() {
            self.tier.installed = None;
        }
        for (t, &k) in gone.iter().zip(&bad) {
            if !self.tier.dropped_ranges.contains(&(t.start, t.end)) {
                self.tier.dropped_ranges.push((t.start, t.end));
            }
            if !self.tier.dropped_once.insert((t.start, t.slot)) {
                self.tier.refused.insert((t.start, t.slot));
            }
            if crate::tier::debug() {
                eprintln!(
                    "garm: tier: dropped {:#x} after {} runs of {} instructions",
                    t.start, self.tier.runs[k], self.tier.run_insns[k]
                );
            }
        }
        self.stats.tier_dropped += bad.len() as u64;
        self.stats
            .tier_regions
            .retain(|r| !gone.iter().any(|t| (t.start, t.end) == (r.0, r.1)));
        self.tier.dropped = true;
        // The run loop plans again from the profile at its next look (the rest stays installed
        // meanwhile; a new set comes with what the dropped ones were waiting on).
        Ok(())
    }

    /// Starts compiling `set` ([`Machine::translate_regions`]), in auto mode after weighing
    /// its regions not running yet in the interpreter: they are marked, and the submits that
    /// follow count the entries into them and the steps inside ([`Machine::take_probe`]); only
    /// those whose entries run [`MIN_INSNS_PER_RUN`] steps are compiled. The rest are dropped
    /// as if they had run and bounced, without their compile or their bouncing.
    pub fn weigh_regions(&mut self, set: &[Region]) -> Result<(), GpuError> {
        if self.tier.sync || self.tier.force || self.tier.probing() {
            return self.translate_regions(set);
        }
        let target = Target {
            native64: self.cfg.prelude == crate::gpu::shader::Prelude::U64,
        };
        // Only what the translator takes whole: weighed with a caller it then refuses (main's
        // loop with an atomic add), a helper passed as part of it and then bounced alone.
        let whole = |m: &Self, r: &Region| {
            m.translate_one(0, r, target)
                .is_some_and(|(t, ..)| t.translated as u64 == r.instructions())
        };
        let (set, refused): (Vec<Region>, Vec<Region>) =
            set.iter().cloned().partition(|r| whole(self, r));
        for r in refused {
            if self.tier.refused.insert((r.start, r.slot)) {
                self.stats.tier_refused += 1;
            }
        }
        let running = self.tier.regions();
        let new: Vec<(Region, u64, u64)> = set
            .iter()
            .filter(|r| {
                !running
                    .iter()
                    .any(|c| (c.start, c.slot) == (r.start, r.slot))
            })
            .map(|r| (r.clone(), 0, 0))
            .collect();
        if new.is_empty() {
            return self.translate_regions(&set);
        }
        let regions: Vec<Region> = new.iter().map(|(r, ..)| r.clone()).collect();
        self.probe_marks(&regions, true);
        for i in 0..self.instances() {
            let b = i * STATE_WORDS + S_PROBE;
            self.state[b..b + 4].fill(0);
        }
        self.state_dirty = true;
        if crate::tier::debug() {
            let list: Vec<String> = regions.iter().map(|r| format!("{:#x}", r.start)).collect();
            eprintln!(
                "garm: tier: weighing {} ({:.2} s)",
                list.join(" "),
                crate::tier::elapsed()
            );
        }
        self.tier.probe = Some(Probe {
            set,
            new,
            entries: 0,
            steps: 0,
            lanes: 0,
            since: Instant::now(),
        });
        Ok(())
    }

    /// The decoded page region `r` lies in (found by its slot) and the indexes of its
    /// instructions there.
    fn region_code(&self, r: &Region) -> Option<(Vec<crate::isa::Decoded>, Range<usize>)> {
        let ((page, bytes), _) = self.code_pages.iter().find(|(_, &s)| s == r.slot)?;
        let code = crate::isa::decode_page(bytes, *page);
        let a = ((r.start - page) / 4) as usize;
        let b = (((r.end - page) / 4) as usize).min(code.len());
        Some((code, a..b))
    }

    /// Where the BL instructions of `regions` go.
    fn call_targets(&self, regions: &[&Region]) -> std::collections::HashSet<u64> {
        regions
            .iter()
            .filter_map(|r| self.region_code(r))
            .flat_map(|(code, at)| crate::tier::calls(&code[at]))
            .collect()
    }

    /// Sets or clears [`f::PROBE`] on every instruction of `regions` (keeping the entry marks of
    /// the installed regions they hold: a function weighed around its translated loop).
    fn probe_marks(&mut self, regions: &[Region], on: bool) {
        let force = self.tier.force;
        let marked: std::collections::HashSet<(u32, u64)> = self
            .tier
            .live()
            .iter()
            .filter(|t| t.loops || force)
            .flat_map(|t| t.entries.iter().map(|&(pc, _)| (t.slot, pc)))
            .collect();
        for r in regions {
            let Some((code, at)) = self.region_code(r) else {
                continue;
            };
            let a = at.start;
            let mut words = Vec::with_capacity(at.len() * DECODED_WORDS);
            for (j, d) in code[at].iter().enumerate() {
                let mut w = d.w;
                if on {
                    w[1] |= f::PROBE;
                }
                if marked.contains(&(r.slot, r.start + 4 * j as u64)) {
                    w[1] |= f::TIER;
                }
                words.extend_from_slice(&w);
            }
            let off = (r.slot as u64 * INSNS_PER_PAGE + a as u64) * DECODED_WORDS as u64 * 4;
            self.gpu
                .queue
                .write_buffer(&self.dec, off, bytemuck::cast_slice(&words));
        }
    }

    /// Adds what the lanes counted in the weighed regions since the last submit, and once that
    /// is enough to judge (or the probe ran [`PROBE_MAX`]) compiles the set with the regions
    /// that pay.
    pub(super) fn take_probe(&mut self) -> Result<(), GpuError> {
        let instances = self.instances();
        let Some(p) = self.tier.probe.as_mut() else {
            return Ok(());
        };
        let mut lanes = 0;
        for i in 0..instances {
            let b = i * STATE_WORDS;
            let (e, n, last) = (
                self.state[b + S_PROBE] as u64,
                self.state[b + S_PROBE + 1] as u64,
                self.state[b + S_PROBE + 2],
            );
            if e == 0 && n == 0 {
                continue;
            }
            self.state[b + S_PROBE..b + S_PROBE + 3].fill(0);
            self.state_dirty = true;
            let base =
                self.state[b + S_CODE_BASE] as u64 | (self.state[b + S_CODE_BASE + 1] as u64) << 32;
            // Where the lane last came in, else (steps only: it stayed inside) where it is.
            let pc = if last != 0 {
                base.wrapping_add(4 * (last as u64 - 1))
            } else {
                self.state[b + S_PC] as u64 | (self.state[b + S_PC + 1] as u64) << 32
            };
            // (By the slot the lane's code map names: another program may have code there.)
            let page = (pc.wrapping_sub(base) >> 12) as usize;
            let slot = (page < self.map_pages as usize)
                .then(|| self.codemap[i * self.map_pages as usize + page]);
            if let Some(r) = p
                .new
                .iter_mut()
                .find(|(r, ..)| Some(r.slot) == slot && (r.start..r.end).contains(&pc))
            {
                r.1 += e;
                r.2 += n;
            }
            p.entries += e;
            p.steps += n;
            lanes += (e > 0) as u64;
        }
        p.lanes = p.lanes.max(lanes);
        let window = UNPROFITABLE_RUNS * p.lanes.max(1);
        let enough = p.entries >= window || p.steps >= window * MIN_INSNS_PER_RUN;
        if !enough && p.since.elapsed() < PROBE_MAX {
            return Ok(());
        }
        let p = self.tier.probe.take().expect("probe");
        let regions: Vec<Region> = p.new.iter().map(|(r, ..)| r.clone()).collect();
        self.probe_marks(&regions, false);
        let judged = verdict(&p.new, p.entries, p.steps);
        let idle = judged.is_none();
        let mut out = judged.unwrap_or_default();
        keep_called(&mut out, &p.set, |kept| self.call_targets(kept));
        if crate::tier::debug() {
            let list: Vec<String> = p
                .new
                .iter()
                .map(|(r, e, n)| format!("{:#x}: {n} steps in {e} entries", r.start))
                .collect();
            eprintln!(
                "garm: tier: weighed in {:.2} s: {} (all: {} in {}); left out: {}",
                p.since.elapsed().as_secs_f64(),
                list.join(", "),
                p.steps,
                p.entries,
                if idle { p.new.len() } else { out.len() }
            );
        }
        for r in &out {
            if !self.tier.dropped_ranges.contains(&(r.start, r.end)) {
                self.tier.dropped_ranges.push((r.start, r.end));
            }
            if !self.tier.dropped_once.insert((r.start, r.slot)) {
                self.tier.refused.insert((r.start, r.slot));
            }
        }
        self.stats.tier_weighed_out += out.len() as u64;
        // Unjudged, all the weighed regions stay out.
        let gone: Vec<Region> = if idle { regions } else { out };
        let keep: Vec<Region> = p
            .set
            .into_iter()
            .filter(|r| !gone.iter().any(|o| (o.start, o.slot) == (r.start, r.slot)))
            .collect();
        if keep.is_empty() {
            return Ok(());
        }
        self.translate_regions(&keep)
    }

    /// Recompiles the running set where accesses in it failed for their alignment often
    /// ([`UNALIGNED_HITS`]) and are not yet taken at any alignment; true if it did. Each such
    /// failure costs a dispatch pair: glibc's strcmp loads 8 bytes from an unaligned address on
    /// every trip, and its region bounced at each (libc_strings forced to its string regions:
    /// 162 818 dispatches, 2 050 with its loads at any alignment).
    fn resite(&mut self) -> Result<bool, GpuError> {
        if self.tier.failed
            || self.tier.busy()
            || self.tier.probing()
            || self.tier.fixed_sites
            || self.tier.site_sets >= MAX_SITE_SETS
        {
            return Ok(false);
        }
        let live: Vec<(u64, u64)> = self.tier.installed_ranges();
        let new: Vec<u64> = self
            .tier
            .unaligned
            .iter()
            .filter(|&(pc, &hits)| {
                hits >= UNALIGNED_HITS
                    && self.tier.sites.binary_search(pc).is_err()
                    && live.iter().any(|&(a, b)| a <= *pc && *pc < b)
            })
            .map(|(&pc, _)| pc)
            .collect();
        if new.is_empty() {
            return Ok(false);
        }
        // Counted once: an access the translator takes no other way stays as it is.
        for pc in &new {
            self.tier.unaligned.remove(pc);
        }
        // Each with its siblings ([`translate::siblings`], which names only accesses the
        // translator takes at any alignment): the next failing load of a pass is only seen
        // after a recompile.
        let spans: Vec<(u64, u64, u32)> = self
            .tier
            .live()
            .iter()
            .map(|t| (t.start, t.end, t.slot))
            .collect();
        let failed = new;
        let mut new = Vec::new();
        for (start, end, slot) in spans {
            let Some(((page, bytes), _)) = self.code_pages.iter().find(|(_, &s)| s == slot) else {
                continue;
            };
            let code = crate::isa::decode_page(bytes, *page);
            new.extend(
                failed
                    .iter()
                    .flat_map(|&pc| translate::siblings(*page, &code, start, end, pc)),
            );
        }
        new.sort_unstable();
        new.dedup();
        new.retain(|pc| self.tier.sites.binary_search(pc).is_err());
        if new.is_empty() {
            return Ok(false);
        }
        self.tier.sites.extend(&new);
        self.tier.sites.sort_unstable();
        let regions = self.tier.regions();
        if crate::tier::debug() {
            let list: Vec<String> = new.iter().map(|pc| format!("{pc:#x}")).collect();
            eprintln!(
                "garm: tier: accesses at any alignment: {} ({:.2} s)",
                list.join(" "),
                crate::tier::elapsed()
            );
        }
        self.tier.site_sets += 1;
        // With the running set's page cache: the same set, only its accesses change.
        let cache = self.tier.installed_page_cache();
        let keep_cache = std::mem::replace(&mut self.tier.page_cache, cache);
        let r = self.translate_regions(&regions);
        self.tier.page_cache = keep_cache;
        r?;
        Ok(true)
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Compiles the tier pipeline `src` on `device` (the twin, or the device of a compile that
/// outlives its run) and dispatches it once over no instances.
/// lavapipe compiles a pipeline's machine code at its first dispatch and keeps it in Mesa's
/// shader cache: the main device's first dispatch then loads it instead of stalling every guest
/// behind the compile (the "compile in the background" of a CPU driver; a GPU driver compiles
/// at pipeline creation, which the worker does anyway).
pub fn warm(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    src: &str,
    checked: bool,
    pool: u32,
) -> Result<(), GpuError> {
    use crate::gpu::layout::{bindings, Access, Params};
    let bgl = super::bind_group_layout(device, pool);
    let pipe = Machine::pipeline_from_source(device, src.to_string(), checked, &bgl, 0)?;
    let list = bindings(pool);
    let bufs: Vec<wgpu::Buffer> = list
        .iter()
        .map(|(_, name, access, _)| {
            let uniform = *access == Access::Uniform;
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(name),
                size: if uniform {
                    std::mem::size_of::<Params>() as u64
                } else {
                    256
                },
                usage: if uniform {
                    wgpu::BufferUsages::UNIFORM
                } else {
                    wgpu::BufferUsages::STORAGE
                },
                mapped_at_creation: false,
            })
        })
        .collect();
    let entries: Vec<wgpu::BindGroupEntry> = list
        .iter()
        .zip(&bufs)
        .map(|((b, ..), buf)| wgpu::BindGroupEntry {
            binding: *b,
            resource: buf.as_entire_binding(),
        })
        .collect();
    let bg = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("warm"),
        layout: &bgl,
        entries: &entries,
    });
    // Zeroed parameters: no instances, so every invocation returns at once.
    let mut enc = device.create_command_encoder(&Default::default());
    {
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipe);
        pass.set_bind_group(0, &bg, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    let _llvm = llvm_lock();
    queue.submit([enc.finish()]);
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Wait(e.to_string()))?;
    Ok(())
}

#[cfg(not(target_arch = "wasm32"))]
/// Builds a job's shader on the adapter its run used and dispatches it once, so that its
/// machine code lands in Mesa's disk cache ([`crate::tier::deferred`]).
pub fn compile_detached(job: &crate::tier::deferred::Job) -> Result<(), GpuError> {
    let id = crate::gpu::device::adapter_id(&job.adapter, &job.backend)
        .ok_or_else(|| GpuError::NoMatch(job.adapter.clone()))?;
    let gpu = crate::gpu::device::Gpu::open(Some(&id), job.int64)?;
    warm(&gpu.device, &gpu.queue, &job.src, job.checked, job.pool)
}

/// Counts a worker in [`WORKERS`] while it lives.
struct Busy;

impl Busy {
    fn new() -> Busy {
        WORKERS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Busy
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        WORKERS.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(start: u64) -> Region {
        Region {
            start,
            end: start + 64,
            samples: 0,
            slot: 1,
        }
    }

    #[test]
    fn a_probe_leaves_out_regions_whose_entries_run_short_and_keeps_their_callees_with_the_set() {
        let m = MIN_INSNS_PER_RUN;
        // lua: a helper called from interpreted code (100 steps an entry) and the function it
        // calls, reached only through it.
        let new = [(region(0x1000), 65, 65 * 100), (region(0x2000), 0, 0)];
        let out = verdict(&new, 65, 65 * 100).unwrap();
        assert_eq!(out, vec![region(0x1000), region(0x2000)]);
        // sha256: main's loop entered once, compress reached only from it.
        let new = [(region(0x1000), 1, 336_000), (region(0x2000), 0, 0)];
        assert_eq!(verdict(&new, 1, 336_000), Some(vec![]));
        // Each judged on its own count where it has one.
        let new = [
            (region(0x1000), 10, 10 * m),
            (region(0x2000), 100, 100 * (m - 1)),
        ];
        let out = verdict(&new, 110, 10 * m + 100 * (m - 1)).unwrap();
        assert_eq!(out, vec![region(0x2000)]);
        // Steps only (a lane inside since before the probe): it pays.
        assert_eq!(verdict(&[(region(0x1000), 0, 5)], 0, 5), Some(vec![]));
        // Nothing counted: no verdict.
        assert_eq!(verdict(&[(region(0x1000), 0, 0)], 0, 0), None);
    }

    #[test]
    fn a_region_left_out_stays_where_the_rest_of_the_set_calls_it() {
        // main's loop (kept) calls memcpy (out), which calls a helper (out); strlen (out) is
        // called by nothing kept.
        let set = [
            region(0x1000),
            region(0x2000),
            region(0x3000),
            region(0x4000),
        ];
        let calls = |kept: &[&Region]| {
            kept.iter()
                .flat_map(|r| match r.start {
                    0x1000 => vec![0x2000],
                    0x2000 => vec![0x3000],
                    _ => vec![],
                })
                .collect()
        };
        let mut out = vec![region(0x2000), region(0x3000), region(0x4000)];
        keep_called(&mut out, &set, calls);
        assert_eq!(out, vec![region(0x4000)]);
    }
}
