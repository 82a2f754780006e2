//! Shader variants (sets of optional units) compiled off the run loop: the set a program's
//! earlier runs reached is built on a worker from the start, and a narrower set that decay
//! wants is built while the wider one keeps running. Without this, a glibc program's start-up
//! stopped for three synchronous builds in a row (ATOMIC, then VEC, then VMEM: 0.33 s with
//! Mesa's cache warm, seconds cold) and two more when decay narrowed them.

use super::{GpuError, Machine};
use std::sync::mpsc::Receiver;

/// A variant compiling on a worker thread.
pub(super) struct Prebuild {
    v: usize,
    rx: Receiver<Result<wgpu::ComputePipeline, GpuError>>,
}

/// The smallest variant (fewest units) among `built` that holds every unit of `need`.
pub(super) fn smallest_superset(built: impl Iterator<Item = usize>, need: usize) -> Option<usize> {
    built
        .filter(|&v| v & need == need)
        .min_by_key(|&v| (v.count_ones(), v))
}

impl Machine {
    /// Units an earlier run of this program needed: built on a worker from now on, and taken
    /// whole at the first stop for any unit (one build, not one per unit).
    pub fn hint_units(&mut self, bits: u32) {
        let bits = bits & crate::isa::form::variant::ALL;
        if self.pinned || bits == 0 {
            return;
        }
        self.hint = bits;
        self.stats.units_hint = bits;
        self.prebuild(bits as usize);
    }

    /// The units instructions of this run have needed (what the next run's hint is): those
    /// their stops asked for and those the running variants saw used.
    pub fn needed_units(&self) -> u32 {
        let used = (0..self.instances())
            .map(|i| self.st(i)[crate::gpu::layout::S_USED])
            .fold(0, |a, b| a | b);
        (self.needed | used) & crate::isa::form::variant::ALL
    }

    /// The variant to run for units `need`: the hint's set where it has been given, else
    /// `need` itself; a built variant holding them wins over a build (decay narrows it later).
    pub(super) fn variant_for(&mut self, need: usize) -> usize {
        let want = need | self.hint as usize;
        if self.variants[want].is_none() && self.prebuild.as_ref().is_some_and(|p| p.v == want) {
            self.land_prebuild(true);
        }
        if self.variants[want].is_some() {
            return want;
        }
        let built = (0..self.variants.len()).filter(|&v| self.variants[v].is_some());
        smallest_superset(built, need).unwrap_or(want)
    }

    /// The narrower variant `v` for decay: now if it is built, else built on a worker while
    /// the running one (a superset) goes on.
    pub(super) fn narrow_to(&mut self, v: usize) -> Result<(), GpuError> {
        self.land_prebuild(false);
        if self.variants[v].is_some() {
            return self.switch_to(v);
        }
        if self.prebuild.is_none() {
            self.prebuild(v);
        }
        if self.prebuild.is_none() {
            // No worker (a browser): built here, as before.
            return self.switch_to(v);
        }
        Ok(())
    }

    /// Starts building variant `v` on a worker, unless it is built or another build runs.
    fn prebuild(&mut self, v: usize) {
        if self.variants[v].is_some() || self.prebuild.is_some() {
            return;
        }
        #[cfg(target_arch = "wasm32")]
        let _ = v;
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (tx, rx) = std::sync::mpsc::channel();
            let device = self.gpu.device.clone();
            let cfg = self.cfg;
            let bgl = self.bgl.clone();
            let pool = (self.mem.len() as u32, self.frame_shift);
            let twin = self.tier.twin();
            let adapter = self.gpu.adapter.clone();
            let limits = self.gpu.limits.clone();
            std::thread::spawn(move || {
                // Counted: the process must not exit through Mesa's handlers mid-compile.
                let _busy = super::tiered::Busy::new();
                let src = super::shader::source(cfg.prelude, cfg.abi, v as u32, pool.0, pool.1);
                let p = Machine::pipeline_from_source(
                    &device,
                    src.clone(),
                    cfg.checked,
                    &bgl,
                    v as u32,
                );
                let built = p.is_ok();
                let _ = tx.send(p);
                // lavapipe compiles at the first dispatch: one on the twin device puts the
                // machine code in Mesa's cache, so the run's first dispatch of it, if it comes
                // later (the lock orders the two), loads it. (Sent first: with the cache warm,
                // the run would wait for the twin's dispatch for nothing.)
                if built {
                    let t = twin.get_or_init(|| {
                        crate::gpu::device::request(&adapter, device.features(), &limits).ok()
                    });
                    if let Some((d, q)) = t {
                        let _ = super::tiered::warm(d, q, &src, cfg.checked, pool.0);
                    }
                }
            });
            self.prebuild = Some(Prebuild { v, rx });
        }
    }

    /// Takes a worker's variant once it is built (`wait`: waits for it). A failed build is
    /// forgotten: the variant is built in the run loop when it is needed, which reports it.
    pub(super) fn land_prebuild(&mut self, wait: bool) {
        let Some(p) = &self.prebuild else {
            return;
        };
        let got = if wait {
            // (Not under the LLVM lock: the worker's warm-up takes it.)
            let t0 = web_time::Instant::now();
            let r = p.rx.recv().ok();
            self.stats.pipeline_time += t0.elapsed();
            r
        } else {
            p.rx.try_recv().ok()
        };
        let v = p.v;
        match got {
            Some(r) => {
                if let Ok(pipe) = r {
                    self.variants[v] = Some(pipe);
                    self.stats.variants_worker += 1;
                }
                self.prebuild = None;
            }
            None if wait => self.prebuild = None,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::smallest_superset;

    #[test]
    fn a_built_superset_with_fewest_units_is_taken() {
        let built = [0usize, 0x13, 0x1f, 0x3];
        assert_eq!(smallest_superset(built.into_iter(), 0x2), Some(0x3));
        assert_eq!(smallest_superset(built.into_iter(), 0x10), Some(0x13));
        assert_eq!(smallest_superset(built.into_iter(), 0x8), Some(0x1f));
        assert_eq!(smallest_superset([0usize, 1].into_iter(), 0x4), None);
    }
}
