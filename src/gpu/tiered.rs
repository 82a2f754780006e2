//! The translation tier's side of the machine: pipelines that carry translated regions
//! ([`crate::tier`]), compiled on a worker thread and swapped in at a submit boundary. The
//! interpreter's own pipelines stay the fallback: a variant with no tier pipeline yet runs them.

use super::{Machine, MachineConfig, STATE_WORDS, S_TIERED};
use crate::gpu::shader::Tier;
use crate::gpu::GpuError;
use crate::tier::translate::{self, Source, Target, Translation};
use crate::tier::Region;
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The installed regions, and a pipeline per shader variant built with them.
struct Installed {
    tier: Arc<Tier>,
    translations: Vec<Translation>,
    pipes: [Option<wgpu::ComputePipeline>; 32],
}

/// A compile on the worker thread.
struct Pending {
    variant: usize,
    tier: Arc<Tier>,
    translations: Vec<Translation>,
    rx: Receiver<(Result<wgpu::ComputePipeline, GpuError>, Duration)>,
}

/// The translation tier's pipelines.
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
    /// The pipeline with regions for this variant, when one is built.
    pub fn pipeline(&self, variant: usize) -> Option<&wgpu::ComputePipeline> {
        self.installed.as_ref()?.pipes[variant].as_ref()
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
    /// Translates `regions` and starts compiling a pipeline with them for the running variant
    /// (on the worker thread, or here when the tier is synchronous); the regions run from the
    /// submit after it is built. Regions whose decoded page is gone are skipped.
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
        let tier = Arc::new(Tier {
            functions: translations.iter().map(|t| t.wgsl.clone()).collect(),
        });
        self.stats.tier_translated += translations.len() as u64;
        self.start_compile(self.variant, tier, translations)
    }

    fn start_compile(
        &mut self,
        variant: usize,
        tier: Arc<Tier>,
        translations: Vec<Translation>,
    ) -> Result<(), GpuError> {
        let (tx, rx) = channel();
        let device = self.gpu.device.clone();
        let cfg: MachineConfig = self.cfg;
        let bgl = self.bgl.clone();
        let pool = (self.mem.len() as u32, self.frame_shift);
        let t = tier.clone();
        let build = move || {
            let t0 = Instant::now();
            let p = Machine::build_pipeline(&device, &cfg, &bgl, variant as u32, pool, Some(&t));
            let _ = tx.send((p, t0.elapsed()));
        };
        if self.tier.sync {
            build();
        } else {
            std::thread::spawn(build);
        }
        self.tier.pending = Some(Pending {
            variant,
            tier,
            translations,
            rx,
        });
        self.poll_tier();
        Ok(())
    }

    /// Swaps in a pipeline the worker finished (at a submit boundary: the next dispatches run
    /// it). A failed compile leaves the guests interpreted and is counted once.
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
                let same = self
                    .tier
                    .installed
                    .as_ref()
                    .is_some_and(|i| Arc::ptr_eq(&i.tier, &p.tier));
                if !same {
                    self.tier.installed = Some(Installed {
                        tier: p.tier.clone(),
                        translations: p.translations,
                        pipes: std::array::from_fn(|_| None),
                    });
                    self.stats.tier_swaps += 1;
                }
                if let Some(i) = self.tier.installed.as_mut() {
                    i.pipes[p.variant] = Some(pipe);
                }
                self.stats.tier_regions = self
                    .tier
                    .installed
                    .iter()
                    .flat_map(|i| i.translations.iter())
                    .map(|t| (t.start, t.end, t.translated))
                    .collect();
            }
            Err(e) => {
                self.stats.tier_failed += 1;
                self.tier.failed = true;
                if std::env::var_os("GARM_TIER_DEBUG").is_some() {
                    eprintln!("garm: a translation did not compile: {e}");
                }
            }
        }
        // The variant may have changed while it compiled.
        self.tier_variant(self.variant);
    }

    /// The running variant changed: build the installed regions' pipeline for it too.
    pub(super) fn tier_variant(&mut self, v: usize) {
        if self.tier.pending.is_some() || self.tier.failed {
            return;
        }
        let Some(i) = &self.tier.installed else {
            return;
        };
        if i.pipes[v].is_some() {
            return;
        }
        let (tier, tr) = (i.tier.clone(), i.translations.clone());
        let _ = self.start_compile(v, tier, tr);
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
