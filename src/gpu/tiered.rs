//! The translation tier's side of the machine: a pipeline of translated regions
//! ([`crate::tier`], [`crate::gpu::shader::tier_source`]), compiled on a worker thread and
//! swapped in at a submit boundary, whose dispatch follows each of the interpreter's. Lanes
//! reach it by yielding at region entries, which the host marks in the shared decoded pages.

use super::{Machine, MachineConfig, INSNS_PER_PAGE, STATE_WORDS, S_TIERED};
use crate::gpu::shader::Tier;
use crate::gpu::GpuError;
use crate::isa::form::f;
use crate::isa::DECODED_WORDS;
use crate::tier::translate::{self, Source, Target, Translation};
use crate::tier::Region;
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// The installed regions and their pipeline.
struct Installed {
    translations: Vec<Translation>,
    pipe: wgpu::ComputePipeline,
}

/// A compile on the worker thread.
struct Pending {
    translations: Vec<Translation>,
    rx: Receiver<(Result<wgpu::ComputePipeline, GpuError>, Duration)>,
}

/// The translation tier's pipeline.
#[derive(Default)]
pub struct TierPipes {
    installed: Option<Installed>,
    pending: Option<Pending>,
    /// Compile on the caller's thread (the forced mode of tests: translations run from the next
    /// submit on).
    pub sync: bool,
    /// A compile failed: the guests stay interpreted, and no more are tried.
    pub failed: bool,
}

impl TierPipes {
    /// The pipeline of translated regions, once one is built.
    pub fn pipeline(&self) -> Option<&wgpu::ComputePipeline> {
        self.installed.as_ref().map(|i| &i.pipe)
    }

    /// The regions installed or being compiled: (start, slot).
    pub fn regions(&self) -> Vec<(u64, u32)> {
        let t = match (&self.pending, &self.installed) {
            (Some(p), _) => &p.translations,
            (None, Some(i)) => &i.translations,
            _ => return Vec::new(),
        };
        t.iter().map(|t| (t.start, t.slot)).collect()
    }

    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }
}

impl Machine {
    /// Translates `regions` and starts compiling their pipeline (on the worker thread, or here
    /// when the tier is synchronous); they run from the submit after it is built. Regions whose
    /// decoded page is gone are skipped.
    pub fn translate_regions(&mut self, regions: &[Region]) -> Result<(), GpuError> {
        let target = Target {
            native64: self.cfg.prelude == crate::gpu::shader::Prelude::U64,
        };
        let mut translations = Vec::new();
        for r in regions {
            let Some(((page, bytes), _)) = self.code_pages.iter().find(|(_, &s)| s == r.slot)
            else {
                continue;
            };
            let code = crate::isa::decode_page(bytes, *page);
            let src = Source {
                page: *page,
                code: &code,
                slot: r.slot,
                start: r.start,
                end: r.end,
            };
            translations.push(translate::translate(translations.len(), &src, target));
        }
        if let Some(dir) = std::env::var_os("GARM_TIER_DUMP") {
            for t in &translations {
                let path = std::path::Path::new(&dir).join(format!("region-{:x}.wgsl", t.start));
                let _ = std::fs::write(path, &t.wgsl);
            }
        }
        let tier = Tier {
            functions: translations.iter().map(|t| t.wgsl.clone()).collect(),
            ranges: translations.iter().map(|t| (t.start, t.end)).collect(),
        };
        self.stats.tier_translated += translations.len() as u64;
        let (tx, rx) = channel();
        let device = self.gpu.device.clone();
        let cfg: MachineConfig = self.cfg;
        let bgl = self.bgl.clone();
        let pool = (self.mem.len() as u32, self.frame_shift);
        let build = move || {
            let t0 = Instant::now();
            let p = Machine::build_pipeline(&device, &cfg, &bgl, 0, pool, Some(&tier));
            let _ = tx.send((p, t0.elapsed()));
        };
        if self.tier.sync {
            build();
        } else {
            std::thread::spawn(build);
        }
        self.tier.pending = Some(Pending { translations, rx });
        self.poll_tier();
        Ok(())
    }

    /// Swaps in a pipeline the worker finished (at a submit boundary: the next dispatches run
    /// it), moving the entry marks from the old regions to the new. A failed compile leaves the
    /// guests interpreted and is counted once.
    pub(super) fn poll_tier(&mut self) {
        let Some(p) = &self.tier.pending else {
            return;
        };
        let Ok((built, took)) = p.rx.try_recv() else {
            return;
        };
        let p = self.tier.pending.take().expect("pending");
        self.stats.tier_compile += took;
        match built {
            Ok(pipe) => {
                if let Some(old) = self.tier.installed.take() {
                    self.mark(&old.translations, false);
                }
                self.mark(&p.translations, true);
                self.stats.tier_swaps += 1;
                self.stats.tier_regions = p
                    .translations
                    .iter()
                    .map(|t| (t.start, t.end, t.translated))
                    .collect();
                self.tier.installed = Some(Installed {
                    translations: p.translations,
                    pipe,
                });
            }
            Err(e) => {
                self.stats.tier_failed += 1;
                self.tier.failed = true;
                if std::env::var_os("GARM_TIER_DEBUG").is_some() {
                    eprintln!("garm: a translation did not compile: {e}");
                }
            }
        }
    }

    /// Sets or clears the entry marks of translated regions in their decoded pages (shared by
    /// every process running that code; slots never change their bytes).
    fn mark(&mut self, ts: &[Translation], on: bool) {
        for t in ts {
            let page = t.start & !0xfff;
            for &(pc, w0) in &t.entries {
                let i = t.slot as u64 * INSNS_PER_PAGE + (pc - page) / 4;
                let w = if on { w0 | f::TIER } else { w0 };
                let off = i * DECODED_WORDS as u64 * 4;
                self.gpu
                    .queue
                    .write_buffer(&self.dec, off, bytemuck::bytes_of(&w));
            }
        }
    }

    /// Adds the instructions each instance retired in translated code since the last submit.
    pub(super) fn take_tiered(&mut self) {
        if self.tier.installed.is_none() {
            return;
        }
        for i in 0..self.instances() {
            let b = i * STATE_WORDS + S_TIERED;
            let n = self.state[b] as u64 | (self.state[b + 1] as u64) << 32;
            if n != 0 {
                self.stats.tier_insns += n;
                self.state[b] = 0;
                self.state[b + 1] = 0;
                self.state_dirty = true;
            }
        }
    }
}
