//! The device-side machine: guest memory, state, decoded code and output rings for N instances,
//! and the submit loop (many dispatches recorded per submit, one readback per submit).

use super::device::Gpu;
use super::layout::*;
use super::shader::{self, Prelude};
use super::space::{FrameOp, Perm, Spaces};
use super::GpuError;
use crate::guest::{Guest, MemError};
use crate::isa::{Decoded, DECODED_WORDS};
use std::time::Duration;
use web_time::Instant;

#[path = "tiered.rs"]
pub mod tiered;

/// Submits after which optional units no instance ran are dropped from the running variant
/// (an instruction that needs one again stops once and brings it back): a program that used
/// FP once at start-up does not pay for the FP unit on every later step. Short, because a
/// steady submit runs ~100 ms while a wrong drop costs one stop (~0.4 ms) and a cached pipeline.
const DECAY_SUBMITS: u32 = 2;

const PAGE: u32 = 4096;
const INSNS_PER_PAGE: u64 = (PAGE / 4) as u64;
/// Pages (an aligned block) a code fetch stop decodes at once: see [`Machine::decode_page_at`].
pub(crate) const DECODE_AHEAD: u64 = 16;

/// Sizes fixed when the machine is built.
#[derive(Clone, Copy, Debug)]
pub struct MachineConfig {
    pub instances: u32,
    /// The cap on one process's memory (see [`crate::guest::Guest::mem_bytes`]).
    pub mem_bytes: u64,
    /// The span of code a process's code map covers from its lowest executable page.
    pub code_bytes: u32,
    /// Frames of guest memory shared by all processes.
    pub pool_frames: u32,
    pub prelude: Prelude,
    /// Numbers the shader needs from the guest ABI (the syscalls it answers itself).
    pub abi: &'static [(&'static str, u64)],
    /// Let naga add its runtime bounds checks and loop guards (slower). Off by default: the
    /// shader checks every access itself; this mode cross-checks that claim.
    pub checked: bool,
}

/// Counters for `--stats`.
#[derive(Default, Debug, Clone)]
pub struct MachineStats {
    pub dispatches: u64,
    pub submits: u64,
    /// Stops at code not decoded yet, and the pages they decoded (neighbours included).
    pub code_stops: u64,
    pub pages_decoded: u64,
    pub pipeline_time: Duration,
    pub gpu_time: Duration,
    pub readback_time: Duration,
    /// Frames of guest memory in the pool, and the most in use at once.
    pub frames_total: u32,
    pub frames_peak: u32,
    /// Frames copied at a first write to a page fork shared, and frames shared at the end.
    pub cow_copies: u64,
    pub frames_shared: u32,
    /// Faults that gave zero pages (heap, stack, anonymous mappings) their frames.
    pub zero_faults: u64,
    /// pc samples taken ([`Profile`]) and the hottest code: (first address of a 16-instruction
    /// window, its samples), hottest first.
    pub samples: u64,
    /// The profile's weight at the end, in samples (less than `samples` where it decayed):
    /// what `hot` and `regions` are shares of.
    pub weight: u64,
    pub hot: Vec<(u64, u64)>,
    /// The hottest regions (loops, functions): what the translation tier would take.
    pub regions: Vec<crate::tier::Region>,
    /// The translation tier: regions translated (in all installs), pipelines with them swapped
    /// in, compiles that failed, compile time on the worker thread, instructions retired in
    /// translated code.
    pub tier_translated: u64,
    pub tier_swaps: u64,
    pub tier_failed: u64,
    pub tier_compile: Duration,
    pub tier_insns: u64,
    /// GPU time in the interpreter's dispatches and in the tier's, from timestamps around
    /// each (where the adapter has them: `timed`).
    pub interp_gpu: Duration,
    pub tier_gpu: Duration,
    pub timed: bool,
    /// Regions not taken (an instruction the translator leaves to the interpreter), and
    /// regions dropped as unprofitable (too few instructions per entry).
    pub tier_refused: u64,
    pub tier_dropped: u64,
    /// Regions weighed in the interpreter and not compiled (too few instructions per entry).
    pub tier_weighed_out: u64,
    /// The tier compiled on the run's own thread (translate mode): its compile time includes
    /// each set's first submit.
    pub tier_sync: bool,
    /// Regions taken from the plan an earlier run of the program saved.
    pub tier_saved: u64,
    /// When the first pipeline of translated code was swapped in, and (in a run's report) how
    /// long after the run's start that was.
    pub tier_first_at: Option<Instant>,
    pub tier_first: Option<Duration>,
    /// The regions running at the end: (start, end, instructions translated).
    pub tier_regions: Vec<(u64, u64, usize)>,
}

/// Where the guests spend their time: the pc samples the shader takes at each dispatch's end (the
/// last [`SAMPLES`] of each submit per instance), counted per decoded page and instruction.
/// Decoded pages are shared by every process and instance running the same code, so one
/// profile covers them all: what the translation tier chooses its regions from.
#[derive(Default)]
pub struct Profile {
    /// Samples per instruction (1024 per page), by decoded slot.
    counts: std::collections::HashMap<u32, Box<[u32]>>,
    /// Each instance's sample count when last read.
    seen: Vec<u32>,
    pub samples: u64,
}

/// What one sample adds to a count: counts are fixed-point, so halving keeps what a single
/// sample left for a few plans instead of rounding it away.
const SAMPLE_WEIGHT: u32 = 16;

impl Profile {
    /// The counts' sum, in samples: the profile's weight now (decay lowers it).
    pub fn weight(&self) -> u64 {
        self.counts
            .values()
            .flat_map(|c| c.iter())
            .map(|&x| x as u64)
            .sum::<u64>()
            .div_ceil(SAMPLE_WEIGHT as u64)
    }

    /// One sample of instruction `index` of the page decoded at `slot`, standing for `of`
    /// samples (in sixteenths: [`SAMPLE_WEIGHT`] is one).
    pub fn take(&mut self, slot: u32, index: usize, of: u32) {
        let c = &mut self
            .counts
            .entry(slot)
            .or_insert_with(|| vec![0; 1024].into_boxed_slice())[index];
        *c = c.saturating_add(of);
    }

    /// Whether `start..end` (in one page, decoded at `slot`) holds a quarter of the weight.
    pub fn holds_quarter(&self, start: u64, end: u64, slot: u32) -> bool {
        let Some(c) = self.counts.get(&slot) else {
            return false;
        };
        let page = start & !(PAGE as u64 - 1);
        let (a, b) = (
            ((start - page) / 4) as usize,
            (((end - page) / 4) as usize).min(c.len()),
        );
        let held = c[a.min(b)..b]
            .iter()
            .map(|&x| x as u64)
            .sum::<u64>()
            .div_ceil(SAMPLE_WEIGHT as u64);
        held > 0 && held * 4 >= self.weight()
    }

    /// Halves every count (keeping the total taken): the profile then follows a program's
    /// phases (sha256's buffer fill, then its hashing) instead of its whole history.
    pub fn decay(&mut self) {
        for c in self.counts.values_mut() {
            c.iter_mut().for_each(|x| *x >>= 1);
        }
    }
}

/// Instructions per window of [`Machine::hot_code`] (64 bytes).
const HOT_WINDOW: usize = 16;

/// Timestamps around each dispatch of a submit (its passes' ends, after one at the first's
/// start): a submit records at most [`Timing::DISPATCHES`] interpreter dispatches, each with
/// the tier's after it.
struct Timing {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    rb: wgpu::Buffer,
    /// Nanoseconds per tick.
    period: f64,
}

/// One submit in this many is timed (the first included; `--stats` applies their split of GPU
/// time to the whole run): a pass per dispatch with its timestamps cost lavapipe ~0.6 ms a
/// dispatch (glibc's string test: 10 s under `--stats`, 2 s without), so timing every submit
/// slowed what it measured.
pub const TIMING_EVERY: u64 = 8;

impl Timing {
    const DISPATCHES: u32 = 1024;
    const QUERIES: u32 = 1 + 2 * Self::DISPATCHES;

    fn new(gpu: &Gpu) -> Option<Timing> {
        if !gpu
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            return None;
        }
        let size = 8 * Self::QUERIES as u64;
        Some(Timing {
            set: gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("tier-timing"),
                ty: wgpu::QueryType::Timestamp,
                count: Self::QUERIES,
            }),
            resolve: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("tier-timing-resolve"),
                size,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            rb: readback(&gpu.device, "tier-timing-rb", size),
            period: gpu.queue.get_timestamp_period() as f64,
        })
    }
}

pub struct Machine {
    pub gpu: Gpu,
    pub cfg: MachineConfig,
    pub map_pages: u32,
    /// The shader variants compiled so far, by their set of optional units
    /// ([`crate::isa::form::variant`]): the integer one always, others once an instruction
    /// needs them.
    variants: [Option<wgpu::ComputePipeline>; 32],
    /// The variant every dispatch runs: the units instructions have needed, less those no
    /// instance has run for [`DECAY_SUBMITS`] submits.
    variant: usize,
    /// Submits since the units in use were last sampled.
    since_sample: u32,
    /// GARM_VARIANT fixed the variant (for measuring): no decay.
    pinned: bool,
    /// Pipelines dispatched at least once (by variant; 32: the tier's current one): lavapipe
    /// compiles a pipeline's machine code at its first dispatch.
    dispatched: [bool; 33],
    bgl: wgpu::BindGroupLayout,
    bind_group: wgpu::BindGroup,
    params: wgpu::Buffer,
    /// The uniform parameters as last uploaded (set_iters changes them).
    params_now: Params,
    state_buf: wgpu::Buffer,
    /// The frame pool: 2^`frame_shift` frames per binding (the last one may hold fewer).
    mem: Vec<wgpu::Buffer>,
    frame_shift: u32,
    codemap_buf: wgpu::Buffer,
    dec: wgpu::Buffer,
    out: wgpu::Buffer,
    state_rb: wgpu::Buffer,
    out_rb: wgpu::Buffer,
    /// Host copy of every instance's state words, current after each submit.
    pub state: Vec<u32>,
    /// V0-V31 and VT of every instance ([`VREG_STRIDE`] `vec4<u32>` each), on the device only.
    vreg: wgpu::Buffer,
    /// The page tables (layout::BINDINGS 7): the device copy of `tables`.
    ptab: wgpu::Buffer,
    locks: wgpu::Buffer,
    /// Every process's address space: the host's page tables and the frame pool.
    pub(crate) spaces: Spaces,
    /// Host copy of the code maps (instance-major, one entry per 4 KiB page).
    pub codemap: Vec<u32>,
    /// The code map entries changed since the last upload: `[start, end)` (a dynamically linked
    /// program's window is large, and it decodes a page per stop).
    codemap_dirty: Option<(usize, usize)>,
    state_dirty: bool,
    dec_slots: u32,
    dec_capacity: u32,
    /// Decoded pages by (address, bytes): processes running the same code share slots.
    code_pages: std::collections::HashMap<(u64, Vec<u8>), u32>,
    /// The guest address of each decoded slot's page.
    slot_addr: Vec<u64>,
    pub profile: Profile,
    pub stats: MachineStats,
    /// The translation tier's installed regions and pipelines, and a compile under way.
    pub(crate) tier: tiered::TierPipes,
    /// Where a readback cannot block (a browser): frames read since the last submit, and the
    /// frames a host access wanted but found missing ([`MemError::Pending`]).
    frames_seen: std::collections::HashMap<u32, Vec<u8>>,
    frames_wanted: std::collections::BTreeSet<u32>,
    /// The same for the V registers, by slot.
    vregs_seen: std::collections::HashMap<usize, [u128; 32]>,
    vregs_wanted: std::collections::BTreeSet<usize>,
    /// Guest memory reads come only from frames read back since the submit (always in a
    /// browser; natively with `GARM_DEFERRED_READS=1`, so tests cover that path without one).
    pub deferred_reads: bool,
    /// Timestamps for `--stats`'s split of GPU time (None without the adapter's feature).
    timing: Option<Timing>,
    /// A submit with the tier's pipeline has been timed.
    timed_tier: bool,
}

/// Buffer mappings under way: ready once wgpu's callbacks have run (at once after a blocking
/// poll on a native device; when the browser's event loop gets to them on the web).
struct Mapping(std::sync::Arc<std::sync::Mutex<MapState>>);

#[derive(Default)]
struct MapState {
    left: usize,
    failed: Option<String>,
    waker: Option<std::task::Waker>,
}

impl Mapping {
    fn read(slices: &[wgpu::BufferSlice]) -> Mapping {
        let st = std::sync::Arc::new(std::sync::Mutex::new(MapState {
            left: slices.len(),
            ..Default::default()
        }));
        for s in slices {
            let st = st.clone();
            s.map_async(wgpu::MapMode::Read, move |r| {
                let mut g = st.lock().unwrap_or_else(|e| e.into_inner());
                g.left -= 1;
                if let Err(e) = r {
                    g.failed = Some(e.to_string());
                }
                if g.left == 0 {
                    if let Some(w) = g.waker.take() {
                        w.wake();
                    }
                }
            });
        }
        Mapping(st)
    }
}

impl std::future::Future for Mapping {
    type Output = Result<(), GpuError>;
    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if g.left > 0 {
            g.waker = Some(cx.waker().clone());
            return std::task::Poll::Pending;
        }
        std::task::Poll::Ready(match g.failed.take() {
            Some(e) => Err(GpuError::Map(e)),
            None => Ok(()),
        })
    }
}

fn storage(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    extra: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(16),
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC
            | extra,
        mapped_at_creation: false,
    })
}

/// Bytes of one instance's V0-V31 as the device holds them.
const VREGS_BYTES: u64 = 32 * 16;

/// V0-V31 from their bytes on the device (little-endian, V0 first).
fn vregs_from(bytes: &[u8]) -> [u128; 32] {
    let mut v = [0u128; 32];
    for (r, c) in v.iter_mut().zip(bytes.chunks_exact(16)) {
        *r = u128::from_le_bytes(c.try_into().unwrap());
    }
    v
}

fn readback(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(16),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// log2 of the frames one binding of the pool holds under these limits: a power of two, so the
/// shader finds a word's binding by a shift.
pub fn frame_shift_in(l: &wgpu::Limits) -> u32 {
    let max = l.max_storage_buffer_binding_size.min(l.max_buffer_size);
    (max / PAGE as u64).max(1).ilog2()
}

fn frame_shift(gpu: &Gpu) -> u32 {
    frame_shift_in(&gpu.limits)
}

/// Bindings the frame pool may span: what the limits allow beside the shader's other storage
/// buffers, and within the u32 word index (16 GiB).
pub fn pool_bindings_max_in(l: &wgpu::Limits) -> u32 {
    let other = BINDINGS.iter().filter(|b| b.2 != Access::Uniform).count() as u32 - 1;
    let by_index = ((1u64 << 22) >> frame_shift_in(l)).max(1) as u32;
    l.max_storage_buffers_per_shader_stage
        .saturating_sub(other)
        .clamp(1, by_index)
}

/// The largest frame pool in bytes on this adapter, and what one binding of it holds.
pub fn pool_limit(gpu: &Gpu) -> (u64, u64) {
    let one = (PAGE as u64) << frame_shift(gpu);
    (one * pool_bindings_max_in(&gpu.limits) as u64, one)
}

/// The bind group layout of every CPU pipeline: the contract's bindings with `pool` bindings of
/// frames.
pub(crate) fn bind_group_layout(device: &wgpu::Device, pool: u32) -> wgpu::BindGroupLayout {
    let entries: Vec<_> = bindings(pool)
        .iter()
        .map(|(b, _, access, _)| wgpu::BindGroupLayoutEntry {
            binding: *b,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: match access {
                    Access::Uniform => wgpu::BufferBindingType::Uniform,
                    Access::Read => wgpu::BufferBindingType::Storage { read_only: true },
                    Access::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("cpu"),
        entries: &entries,
    })
}

impl Machine {
    /// Builds the buffers and the pipeline. Fails with a clear message when the memory of all
    /// instances does not fit the adapter's largest storage binding.
    pub fn new(gpu: Gpu, cfg: MachineConfig) -> Result<Machine, GpuError> {
        if cfg.prelude == Prelude::U64 && !gpu.int64 {
            return Err(GpuError::NoInt64);
        }
        let n = cfg.instances as u64;
        let mem_total = cfg.pool_frames as u64 * PAGE as u64;
        let (max_pool, _) = pool_limit(&gpu);
        if mem_total > max_pool {
            return Err(GpuError::MemoryTooBig {
                need_mib: mem_total >> 20,
                adapter: gpu.info.name.clone(),
                max_mib: max_pool >> 20,
            });
        }
        let shift = frame_shift(&gpu);
        let pool = ((cfg.pool_frames.max(1) - 1) >> shift) + 1;
        let map_pages = cfg.code_bytes / PAGE;
        let device = &gpu.device;
        let t0 = Instant::now();
        let bgl = bind_group_layout(device, pool);
        let pipeline = Self::build_pipeline(&gpu.device, &cfg, &bgl, 0, (pool, shift), None)?;
        // GARM_VARIANT=N starts in variant N (a set of units), for measuring their cost.
        let start_variant = std::env::var("GARM_VARIANT")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0)
            & crate::isa::form::variant::ALL as usize;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: std::mem::size_of::<Params>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let p = Params {
            n_instances: cfg.instances,
            map_pages,
            iters: ITERS,
            out_words: OUT_WORDS,
            zero: 0,
        };
        gpu.queue.write_buffer(&params, 0, bytemuck::bytes_of(&p));
        // The lane map follows the instances' state words (see `map_lanes`).
        let state_size = (n * STATE_WORDS as u64 + n) * 4;
        let out_size = n * OUT_WORDS as u64 * 4;
        let state_buf = storage(device, "state", state_size, wgpu::BufferUsages::empty());
        let per = (PAGE as u64) << shift;
        let mem: Vec<wgpu::Buffer> = (0..pool as u64)
            .map(|k| {
                let size = (mem_total - k * per).min(per);
                storage(device, "mem", size, wgpu::BufferUsages::empty())
            })
            .collect();
        let codemap_buf = storage(
            device,
            "codemap",
            n * map_pages as u64 * 4,
            wgpu::BufferUsages::empty(),
        );
        let dec_capacity = 16;
        let dec = storage(
            device,
            "dec",
            dec_capacity as u64 * INSNS_PER_PAGE * (DECODED_WORDS as u64 * 4),
            wgpu::BufferUsages::empty(),
        );
        let out = storage(device, "out", out_size, wgpu::BufferUsages::empty());
        let vreg = storage(
            device,
            "vreg",
            n * VREG_STRIDE as u64 * 16,
            wgpu::BufferUsages::empty(),
        );
        let spaces = Spaces::new(n as usize, cfg.pool_frames);
        let tables = &spaces.tables;
        let ptab = storage(
            device,
            "ptab",
            tables.words.len() as u64 * 4,
            wgpu::BufferUsages::empty(),
        );
        let locks = storage(
            device,
            "locks",
            LOCK_WORDS as u64 * 4,
            wgpu::BufferUsages::empty(),
        );
        let state_rb = readback(device, "state-rb", state_size);
        let out_rb = readback(device, "out-rb", out_size);
        let bind_group = Self::bind(
            device,
            &bgl,
            &params,
            &state_buf,
            &mem,
            &codemap_buf,
            &dec,
            &out,
            &vreg,
            &ptab,
            &locks,
        );
        let mut m = Machine {
            map_pages,
            variants: std::array::from_fn(|v| (v == 0).then(|| pipeline.clone())),
            variant: 0,
            since_sample: 0,
            pinned: start_variant != 0,
            dispatched: [false; 33],
            bgl,
            bind_group,
            params,
            params_now: p,
            state_buf,
            mem,
            frame_shift: shift,
            codemap_buf,
            dec,
            out,
            state_rb,
            out_rb,
            state: vec![0; n as usize * (STATE_WORDS + 1)],
            vreg,
            ptab,
            locks,
            spaces,
            codemap: vec![NO_CODE; (n * map_pages as u64) as usize],
            codemap_dirty: Some((0, (n * map_pages as u64) as usize)),
            state_dirty: true,
            dec_slots: 0,
            dec_capacity,
            code_pages: Default::default(),
            slot_addr: Vec::new(),
            profile: Profile {
                seen: vec![0; n as usize],
                ..Default::default()
            },
            stats: MachineStats::default(),
            tier: Default::default(),
            frames_seen: Default::default(),
            frames_wanted: Default::default(),
            vregs_seen: Default::default(),
            vregs_wanted: Default::default(),
            timing: None,
            timed_tier: false,
            deferred_reads: cfg!(target_arch = "wasm32")
                || std::env::var_os("GARM_DEFERRED_READS").is_some_and(|v| v == "1"),
            cfg,
            gpu,
        };
        // Force the pipeline compile now so its cost is measured apart from execution; every
        // instance is parked as exited until the loader gives it a program.
        for i in 0..m.instances() {
            m.state[i * STATE_WORDS + S_STATUS] = Stop::Exited.word();
            m.state[i * STATE_WORDS + S_PTROOT] = m.spaces.root(i);
        }
        m.add_units(start_variant as u32)?;
        // A browser cannot wait here; its first submit compiles.
        #[cfg(not(target_arch = "wasm32"))]
        m.submit(1, true)?;
        m.stats = MachineStats {
            pipeline_time: t0.elapsed(),
            ..Default::default()
        };
        Ok(m)
    }

    /// Compiles one variant of the CPU shader into a pipeline.
    pub(crate) fn build_pipeline(
        device: &wgpu::Device,
        cfg: &MachineConfig,
        bgl: &wgpu::BindGroupLayout,
        variant: u32,
        (pool, shift): (u32, u32),
        tier: Option<&shader::Tier>,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        let src = match tier {
            Some(t) => shader::tier_source(cfg.prelude, cfg.abi, pool, shift, t),
            None => shader::source(cfg.prelude, cfg.abi, variant, pool, shift),
        };
        Self::pipeline_from_source(device, src, cfg.checked, bgl, variant)
    }

    /// The compute pipeline of the complete shader `src` ([`Machine::build_pipeline`] makes the
    /// text; a compile that outlives its run gets it from a file).
    pub(crate) fn pipeline_from_source(
        device: &wgpu::Device,
        src: String,
        checked: bool,
        bgl: &wgpu::BindGroupLayout,
        variant: u32,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        // Validation errors come back as an error, not wgpu's default panic (a browser cannot
        // wait for the scope: its errors go to the device's uncaptured-error handler).
        #[cfg(not(target_arch = "wasm32"))]
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let label = Some("cpu");
        let module = if checked {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label,
                source: wgpu::ShaderSource::Wgsl(src.into()),
            })
        } else {
            // SAFETY: every memory access in the shader is bounds-checked by its own code (mem_ok,
            // the pad words, register selectors below REGS: `Form::build` traps any other; V
            // register numbers are masked to 0-31), and the loop limiter is handled explicitly,
            // so naga's injected checks are redundant.
            unsafe {
                device.create_shader_module_trusted(
                    wgpu::ShaderModuleDescriptor {
                        label,
                        source: wgpu::ShaderSource::Wgsl(src.into()),
                    },
                    wgpu::ShaderRuntimeChecks::unchecked(),
                )
            }
        };
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label,
            bind_group_layouts: &[Some(bgl)],
            immediate_size: 0,
        });
        let p = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label,
            layout: Some(&layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        #[cfg(target_arch = "wasm32")]
        let popped: Option<wgpu::Error> = None;
        #[cfg(not(target_arch = "wasm32"))]
        let popped = pollster::block_on(scope.pop());
        match popped {
            None => Ok(p),
            Some(e) => Err(GpuError::Shader {
                variant,
                detail: e.to_string(),
            }),
        }
    }

    /// Adds units to the running variant of the shader (compiled on first use), from the first
    /// instruction that needs them on (a Variant stop): every later dispatch runs it. Deciding
    /// at execution, not decode, keeps integer programs whose pages hold data that decodes as
    /// FP/SIMD (literal pools, constants) in the small shader.
    pub fn add_units(&mut self, bits: u32) -> Result<(), GpuError> {
        let v = (self.variant as u32 | bits) as usize & crate::isa::form::variant::ALL as usize;
        self.switch_to(v)
    }

    /// Runs variant `v` from the next dispatch on, compiling it on first use.
    fn switch_to(&mut self, v: usize) -> Result<(), GpuError> {
        if v == self.variant {
            return Ok(());
        }
        if self.variants[v].is_none() {
            let t0 = Instant::now();
            let pool = (self.mem.len() as u32, self.frame_shift);
            let p =
                Self::build_pipeline(&self.gpu.device, &self.cfg, &self.bgl, v as u32, pool, None)?;
            self.variants[v] = Some(p);
            self.stats.pipeline_time += t0.elapsed();
        }
        self.variant = v;
        Ok(())
    }

    /// Splits the GPU time between the interpreter's dispatches and the tier's from now on
    /// (`--stats`), where the adapter has timestamps: each dispatch then has a pass of its own.
    pub fn time_tiers(&mut self) {
        self.timing = Timing::new(&self.gpu);
    }

    /// Drops the optional units no instance has run for [`DECAY_SUBMITS`] submits.
    fn decay_units(&mut self) -> Result<(), GpuError> {
        if self.variant == 0 || self.pinned {
            return Ok(());
        }
        self.since_sample += 1;
        // Dropping soon pays on lavapipe even where the unit comes back: sqlite3's start
        // (87 such stops) took 1.96 s this way and 2.3 s keeping units 250 ms longer.
        if self.since_sample < DECAY_SUBMITS {
            return Ok(());
        }
        self.since_sample = 0;
        let mut used = 0;
        for i in 0..self.instances() {
            used |= self.state[i * STATE_WORDS + S_USED];
            self.state[i * STATE_WORDS + S_USED] = 0;
        }
        self.state_dirty = true;
        self.switch_to(self.variant & used as usize)
    }

    /// The running variant: its set of optional units.
    pub fn variant(&self) -> u32 {
        self.variant as u32
    }

    fn vreg_offset(&self, inst: usize) -> u64 {
        inst as u64 * VREG_STRIDE as u64 * 16
    }

    /// V0-V31 of one instance (a map round trip).
    pub fn vregs(&mut self, inst: usize) -> Result<[u128; 32], GpuError> {
        let size = VREGS_BYTES;
        let rb = readback(&self.gpu.device, "vreg-rb", size);
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(&self.vreg, self.vreg_offset(inst), &rb, 0, size);
        self.gpu.queue.submit([enc.finish()]);
        Ok(vregs_from(&self.map_read(&rb, size)?))
    }

    pub fn set_vregs(&mut self, inst: usize, v: &[u128; 32]) {
        if let Some(seen) = self.vregs_seen.get_mut(&inst) {
            *seen = *v;
        }
        let bytes: Vec<u8> = v.iter().flat_map(|r| r.to_le_bytes()).collect();
        self.gpu
            .queue
            .write_buffer(&self.vreg, self.vreg_offset(inst), &bytes);
    }

    fn rebind(&mut self) {
        self.bind_group = Self::bind(
            &self.gpu.device,
            &self.bgl,
            &self.params,
            &self.state_buf,
            &self.mem,
            &self.codemap_buf,
            &self.dec,
            &self.out,
            &self.vreg,
            &self.ptab,
            &self.locks,
        );
    }

    /// Brings the device's page tables up to the host's: the tables written since the last
    /// upload, or all of them into a larger buffer when they outgrew it.
    fn upload_tables(&mut self) {
        let need = self.spaces.tables.words.len() as u64 * 4;
        let runs = self.spaces.tables.take_dirty();
        if need > self.ptab.size() {
            let size = need.next_power_of_two();
            self.ptab = storage(&self.gpu.device, "ptab", size, wgpu::BufferUsages::empty());
            self.rebind();
            self.gpu.queue.write_buffer(
                &self.ptab,
                0,
                bytemuck::cast_slice(&self.spaces.tables.words),
            );
            return;
        }
        for r in runs {
            self.gpu.queue.write_buffer(
                &self.ptab,
                r.start as u64 * 4,
                bytemuck::cast_slice(&self.spaces.tables.words[r]),
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn bind(
        device: &wgpu::Device,
        bgl: &wgpu::BindGroupLayout,
        params: &wgpu::Buffer,
        state: &wgpu::Buffer,
        mem: &[wgpu::Buffer],
        codemap: &wgpu::Buffer,
        dec: &wgpu::Buffer,
        out: &wgpu::Buffer,
        vreg: &wgpu::Buffer,
        ptab: &wgpu::Buffer,
        locks: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        fn e(binding: u32, b: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
            wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            }
        }
        // In the order of the contract's bindings: BINDINGS, then the pool's further ones.
        let buffers = [params, state, &mem[0], codemap, dec, out, vreg, ptab, locks]
            .into_iter()
            .chain(&mem[1..]);
        let entries: Vec<_> = bindings(mem.len() as u32)
            .iter()
            .zip(buffers)
            .map(|((b, ..), buf)| e(*b, buf))
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cpu"),
            layout: bgl,
            entries: &entries,
        })
    }

    /// Steps each invocation may run per dispatch: [`ITERS`] normally, 1 to single-step (an
    /// instruction trace).
    /// Interpreter steps per invocation per dispatch.
    pub fn iters(&self) -> u32 {
        self.params_now.iters
    }

    pub fn set_iters(&mut self, iters: u32) {
        self.params_now.iters = iters.max(1);
        self.gpu
            .queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&self.params_now));
    }

    pub fn instances(&self) -> usize {
        self.cfg.instances as usize
    }

    /// One instance's state words.
    pub fn st(&self, inst: usize) -> &[u32] {
        &self.state[inst * STATE_WORDS..(inst + 1) * STATE_WORDS]
    }

    /// One instance's state words, for changing; uploaded before the next submit.
    pub fn st_mut(&mut self, inst: usize) -> &mut [u32] {
        self.state_dirty = true;
        &mut self.state[inst * STATE_WORDS..(inst + 1) * STATE_WORDS]
    }

    pub fn reg(&self, inst: usize, r: usize) -> u64 {
        let s = self.st(inst);
        s[r * 2] as u64 | (s[r * 2 + 1] as u64) << 32
    }

    pub fn set_reg(&mut self, inst: usize, r: usize, v: u64) {
        let s = self.st_mut(inst);
        s[r * 2] = v as u32;
        s[r * 2 + 1] = (v >> 32) as u32;
    }

    pub fn word64(&self, inst: usize, i: usize) -> u64 {
        let s = self.st(inst);
        s[i] as u64 | (s[i + 1] as u64) << 32
    }

    pub fn set_word64(&mut self, inst: usize, i: usize, v: u64) {
        let s = self.st_mut(inst);
        s[i] = v as u32;
        s[i + 1] = (v >> 32) as u32;
    }

    /// The pieces of `[addr, addr + len)` within one page each: (guest address, its frame or
    /// `None` for a zero page without one, length).
    #[allow(clippy::type_complexity)]
    fn pieces(
        &self,
        inst: usize,
        addr: u64,
        len: u64,
    ) -> Result<Vec<(u64, Option<u32>, u64)>, MemError> {
        self.spaces.pieces(inst, addr, len).ok_or(MemError::Fault {
            addr,
            len: len as usize,
        })
    }

    /// Writes bytes into one instance's memory; unaligned edges are merged with what is there.
    pub fn write_mem(&mut self, inst: usize, addr: u64, data: &[u8]) -> Result<(), MemError> {
        if data.is_empty() {
            return Ok(());
        }
        self.pieces(inst, addr, data.len() as u64)?;
        let mut ops = Vec::new();
        self.spaces
            .populate(inst, addr, data.len() as u64, &mut ops)?;
        self.frame_ops(inst, &ops);
        let start = addr & !3;
        let end = (addr + data.len() as u64 + 3) & !3;
        let mut buf = if start == addr && end == addr + data.len() as u64 {
            vec![0u8; (end - start) as usize]
        } else {
            let mut b = self.read_mem(inst, start, (end - start) as usize)?;
            b.resize((end - start) as usize, 0);
            b
        };
        let off = (addr - start) as usize;
        buf[off..off + data.len()].copy_from_slice(data);
        for (a, at, n) in self.pieces(inst, start, end - start)? {
            let k = (a - start) as usize;
            let f = at.expect("populated");
            let (b, off) = self.frame_at(f);
            self.gpu
                .queue
                .write_buffer(b, off + (a & 0xfff), &buf[k..k + n as usize]);
            if let Some(page) = self.frames_seen.get_mut(&f) {
                let o = (a & 0xfff) as usize;
                page[o..o + n as usize].copy_from_slice(&buf[k..k + n as usize]);
            }
        }
        // A host write (read(2), mmap) over decoded code must not leave stale instructions.
        self.forget_code(inst, addr, data.len() as u64);
        Ok(())
    }

    /// Reads bytes from one instance's memory (a map round trip: use sparingly).
    pub fn read_mem(&mut self, inst: usize, addr: u64, len: usize) -> Result<Vec<u8>, MemError> {
        if len == 0 {
            return Ok(Vec::new());
        }
        if self.deferred_reads {
            return self.read_seen(inst, addr, len);
        }
        // The word-aligned range lies in the same pages as the bytes asked for.
        let start = addr & !3;
        let fault = MemError::Fault { addr, len };
        let end = addr.checked_add(len as u64 + 3).ok_or(fault)? & !3;
        let size = end - start;
        let pieces = self.pieces(inst, start, size)?;
        let rb = readback(&self.gpu.device, "mem-rb", size);
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        // A zero page without a frame leaves its part of the (zeroed) readback buffer alone.
        for (a, at, n) in pieces {
            if let Some(f) = at {
                let (b, off) = self.frame_at(f);
                enc.copy_buffer_to_buffer(b, off + (a & 0xfff), &rb, a - start, n);
            }
        }
        self.gpu.queue.submit([enc.finish()]);
        let bytes = self.map_read(&rb, size)?;
        let off = (addr - start) as usize;
        Ok(bytes[off..off + len].to_vec())
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn map_read(&self, buf: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
        let slice = buf.slice(..size);
        pollster::block_on(self.mapped(Mapping::read(&[slice])))?;
        let data = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Map(e.to_string()))?
            .to_vec();
        buf.unmap();
        Ok(data)
    }

    /// A browser cannot wait for a mapping: its host reads guest memory deferred instead.
    #[cfg(target_arch = "wasm32")]
    fn map_read(&self, _buf: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
        Err(GpuError::Wait(format!(
            "a blocking readback ({size} bytes) is not available in a browser"
        )))
    }

    /// The decoded slot for a page of code at `addr` with these bytes, decoding it only once.
    pub fn code_slot_for(&mut self, addr: u64, bytes: &[u8]) -> Result<u32, GpuError> {
        if let Some(&s) = self.code_pages.get(&(addr, bytes.to_vec())) {
            return Ok(s);
        }
        if self.dec_slots >= self.code_capacity() {
            // Each new version of self-modifying code takes a page of decoded code.
            return Err(GpuError::CodeFull(self.dec_slots));
        }
        let s = self.add_code_page(&crate::isa::decode_page(bytes, addr));
        self.code_pages.insert((addr, bytes.to_vec()), s);
        self.slot_addr.resize(s as usize + 1, 0);
        self.slot_addr[s as usize] = addr;
        Ok(s)
    }

    /// Decodes the page holding `pc` from guest memory and maps it (a NeedCode stop); the
    /// instance runs on. The executable pages around it that are not decoded yet (the aligned
    /// [`DECODE_AHEAD`] pages holding it) come with it, read in one go, while the decoded-code
    /// pool is less than half full: code runs on into its neighbours (a dynamic program's
    /// start-up touches hundreds of library pages, each a stop and a submit otherwise). Writable
    /// neighbours are left alone: a decoded page makes every write to it stop.
    pub fn decode_page_at(&mut self, inst: usize, pc: u64) -> Result<(), MemError> {
        let page = pc & !0xfff;
        let block = DECODE_AHEAD * PAGE as u64;
        let (mut lo, mut hi) = (page, page + PAGE as u64);
        if self.code_room() > self.code_capacity() / 2 {
            let wanted = |m: &Self, p: u64| {
                m.code_slot(inst, p) == NO_CODE
                    && Guest::perm(m, inst, p).is_some_and(|r| r.has(Perm::X) && !r.has(Perm::W))
            };
            while lo > page & !(block - 1) && wanted(self, lo - PAGE as u64) {
                lo -= PAGE as u64;
            }
            while hi < (page & !(block - 1)) + block && wanted(self, hi) {
                hi += PAGE as u64;
            }
        }
        let bytes = self.read_mem(inst, lo, (hi - lo) as usize)?;
        self.stats.code_stops += 1;
        for (i, chunk) in bytes.chunks(PAGE as usize).enumerate() {
            let at = lo + (i * PAGE as usize) as u64;
            match self.code_slot_for(at, chunk) {
                Ok(s) => {
                    self.map_code(inst, at, s);
                    self.stats.pages_decoded += 1;
                }
                // A neighbour that does not fit is left for its own stop.
                Err(_) if at != page => {}
                Err(e) => return Err(e.into()),
            }
        }
        self.st_mut(inst)[S_STATUS] = Stop::Running.word();
        Ok(())
    }

    /// Decoded code pages the pool holds at most (the storage binding's limit, two copies).
    fn code_capacity(&self) -> u32 {
        let page_bytes = INSNS_PER_PAGE * DECODED_WORDS as u64 * 4;
        let limit = self
            .gpu
            .limits
            .max_storage_buffer_binding_size
            .min(self.gpu.limits.max_buffer_size);
        (limit / (2 * page_bytes)).min(u32::MAX as u64) as u32
    }

    /// Decoded code pages the pool has room for still.
    fn code_room(&self) -> u32 {
        self.code_capacity().saturating_sub(self.dec_slots)
    }

    /// Forgets the decode of the page at `addr` (a CodeMod stop: a write to it waits) and its
    /// mark; the write then runs, and the next fetch there decodes afresh.
    pub fn forget_code_at(&mut self, inst: usize, addr: u64) {
        for t in self.spaces.slots_sharing(inst) {
            self.map_code(t, addr & !0xfff, NO_CODE);
        }
        // A page outside the code map can still carry the mark (its code was unmapped).
        self.spaces.mark_code(inst, addr, false);
        self.st_mut(inst)[S_STATUS] = Stop::Running.word();
    }

    /// Zeroes the 64-byte block at `addr` for DC ZVA (rare, and sixteen stores would cost
    /// every step on lavapipe). The instance runs on.
    pub fn zero_block(&mut self, inst: usize, addr: u64) -> Result<(), MemError> {
        self.write_mem(inst, addr, &[0u8; 64])?;
        self.st_mut(inst)[S_STATUS] = Stop::Running.word();
        Ok(())
    }

    /// Makes one instance a copy of another (fork): memory copy-on-write, state, V registers
    /// and code map.
    pub fn copy_instance(&mut self, from: usize, to: usize) {
        self.spaces.copy(from, to);
        // The parent's writable pages became read-only to the shader.
        self.frame_ops(from, &[]);
        self.copy_cpu(from, to);
    }

    /// Counts the pc samples the instances took since the last submit into the profile.
    fn take_samples(&mut self) {
        let pages = self.map_pages as usize;
        for i in 0..self.instances() {
            let st = &self.state[i * STATE_WORDS..(i + 1) * STATE_WORDS];
            let now = st[S_SAMPLE_N];
            // (Bounded: a forked instance's ring is its parent's copy.)
            let taken = now.wrapping_sub(self.profile.seen[i]).min(1 << 12);
            let new = taken.min(SAMPLES);
            self.profile.seen[i] = now;
            self.profile.samples += taken as u64;
            // The ring keeps a submit's last SAMPLES: each then stands for its share of all
            // the submit took. Counted as one each, a phase of short submits (a syscall's
            // round trip each: printf's at sha256's end, 64 instances) outweighed one of long
            // ones, and its helpers were planned (to bounce) run after run.
            let of = (SAMPLE_WEIGHT as u64 * taken as u64 / new.max(1) as u64) as u32;
            for k in 0..new {
                let v = st[S_SAMPLES + (now.wrapping_sub(1 + k) % SAMPLES) as usize];
                let page = (v >> 10) as usize;
                if v == u32::MAX || page >= pages {
                    continue;
                }
                let slot = self.codemap[i * pages + page];
                if slot == NO_CODE {
                    continue;
                }
                self.profile.take(slot, (v & 1023) as usize, of);
            }
        }
    }

    /// The hottest regions (loops and called functions) of the profiled pages
    /// ([`crate::tier::choose`]), at most `n`.
    pub fn hot_regions(&self, n: usize) -> Vec<crate::tier::Region> {
        let zeros = vec![0u32; 1024];
        // Only pages with samples can hold a hot region, and the page after each (a function
        // running on into it): a dynamic program decodes hundreds of library pages it ran once.
        let sampled: std::collections::HashSet<u64> = self
            .code_pages
            .iter()
            .filter(|(_, slot)| self.profile.counts.contains_key(slot))
            .map(|((addr, _), _)| *addr)
            .collect();
        let mut decoded: Vec<(u64, Vec<crate::isa::Decoded>, u32)> = self
            .code_pages
            .iter()
            .filter(|((addr, _), _)| {
                sampled.contains(addr) || sampled.contains(&addr.wrapping_sub(PAGE as u64))
            })
            .map(|((addr, bytes), &slot)| (*addr, crate::isa::decode_page(bytes, *addr), slot))
            .collect();
        // Oldest slot first: where code was rewritten, the planner takes the newest.
        decoded.sort_by_key(|p| p.2);
        let indirect = self.tier.indirect_entries();
        let pages: Vec<crate::tier::Page> = decoded
            .iter()
            .map(|(addr, code, slot)| crate::tier::Page {
                addr: *addr,
                code,
                counts: self.profile.counts.get(slot).map_or(&zeros[..], |c| &c[..]),
                slot: *slot,
                entries: {
                    let a = indirect.partition_point(|&pc| pc < *addr);
                    let b = indirect.partition_point(|&pc| pc < *addr + 4096);
                    &indirect[a..b]
                },
            })
            .collect();
        let refused = |start: u64, slot: u32| self.tier.refused.contains(&(start, slot));
        // A region starting inside one dropped before (a loop of a dropped function) counts as
        // dropped too: it would bounce the same way.
        let dropped = |start: u64, slot: u32| {
            self.tier.dropped_once.contains(&(start, slot))
                || self
                    .tier
                    .dropped_ranges
                    .iter()
                    .any(|&(a, b)| (a..b).contains(&start))
                || self
                    .tier
                    .earlier_drops
                    .iter()
                    .any(|&(a, b, s)| (a..b).contains(&start) && !self.forgiven(a, b, s))
        };
        let installed = self.tier.regions();
        let running =
            |start: u64, slot: u32| installed.iter().any(|r| r.start == start && r.slot == slot);
        let mut chosen = crate::tier::plan(&pages, &refused, &dropped, &running, n);
        // GARM_TIER_ONLY=ADDR (hex) keeps the region starting there only: for measuring one.
        if let Some(only) = std::env::var("GARM_TIER_ONLY")
            .ok()
            .and_then(|v| u64::from_str_radix(v.trim_start_matches("0x"), 16).ok())
        {
            chosen.retain(|r| r.start == only);
        }
        for r in &mut chosen {
            r.samples = r.samples.div_ceil(SAMPLE_WEIGHT as u64);
        }
        chosen
    }

    /// Whether an earlier run's drop of `start..end` (in one page, decoded at `slot`) is
    /// forgiven: the code holds a quarter of the profile's weight. A drop of code that hot was
    /// more likely its context's doing (a caller or callee left interpreted, its data out of
    /// the tier's region cache) than its own, and remembered for good it kept the hottest code
    /// interpreted in every later run (sha256 at 1 instance: compress, main and main's tail all
    /// dropped, 0% translated). Dropped again in this run, it is refused for the run.
    pub fn forgiven(&self, start: u64, end: u64, slot: u32) -> bool {
        self.profile.holds_quarter(start, end, slot)
    }

    /// The `n` hottest 16-instruction windows of guest code by samples: (address, samples).
    pub fn hot_code(&self, n: usize) -> Vec<(u64, u64)> {
        let mut w: Vec<(u64, u64)> = self
            .profile
            .counts
            .iter()
            .flat_map(|(&slot, c)| {
                let page = self.slot_addr.get(slot as usize).copied().unwrap_or(0);
                c.chunks(HOT_WINDOW)
                    .enumerate()
                    .filter_map(move |(k, win)| {
                        let s: u64 = win.iter().map(|&x| x as u64).sum();
                        (s > 0).then_some((
                            page + (k * HOT_WINDOW * 4) as u64,
                            s.div_ceil(SAMPLE_WEIGHT as u64),
                        ))
                    })
            })
            .collect();
        w.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        w.truncate(n);
        w
    }

    /// Makes `to` a thread of `from` (clone with CLONE_VM): the same address space and page
    /// tables, a copy of the state, V registers and code map.
    pub fn share_instance(&mut self, from: usize, to: usize) {
        self.spaces.share(from, to);
        self.copy_cpu(from, to);
    }

    /// Copies an instance's registers, V registers, state words and code map into `to`, whose
    /// address space is already set (fork and clone).
    fn copy_cpu(&mut self, from: usize, to: usize) {
        match self.vregs_seen.get(&from).copied() {
            Some(v) => self.vregs_seen.insert(to, v),
            None => self.vregs_seen.remove(&to),
        };
        let vsize = VREG_STRIDE as u64 * 16;
        let scratch = storage(&self.gpu.device, "fork", vsize, wgpu::BufferUsages::empty());
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        let (vf, vt) = (self.vreg_offset(from), self.vreg_offset(to));
        enc.copy_buffer_to_buffer(&self.vreg, vf, &scratch, 0, vsize);
        enc.copy_buffer_to_buffer(&scratch, 0, &self.vreg, vt, vsize);
        self.gpu.queue.submit([enc.finish()]);
        let (a, b) = (from * STATE_WORDS, to * STATE_WORDS);
        self.state.copy_within(a..a + STATE_WORDS, b);
        self.state[b + S_PTROOT] = self.spaces.root(to);
        self.profile.seen[to] = self.state[b + S_SAMPLE_N];
        // The copied translation state may name the parent's tables.
        self.forget_translations(to);
        let p = self.map_pages as usize;
        self.codemap.copy_within(from * p..(from + 1) * p, to * p);
        self.dirty_codemap(to * p, (to + 1) * p);
    }

    /// The buffer of the pool holding frame `f` and the frame's byte offset in it.
    fn frame_at(&self, f: u32) -> (&wgpu::Buffer, u64) {
        let k = (f >> self.frame_shift) as usize;
        let off = (f & ((1 << self.frame_shift) - 1)) as u64 * PAGE as u64;
        (&self.mem[k], off)
    }

    /// Sets a frame's bytes (a shared page's first load).
    pub(crate) fn fill_frame(&mut self, f: u32, bytes: &[u8]) {
        self.frames_seen.remove(&f);
        let (buf, off) = self.frame_at(f);
        self.gpu.queue.write_buffer(buf, off, bytes);
    }

    /// Zeroes, or copies, frames of `mem` (the work of a change to an address space), and
    /// drops what `inst` had cached of its tables.
    pub(crate) fn frame_ops(&mut self, inst: usize, ops: &[FrameOp]) {
        // Every thread of the space may hold a stale crossing stash.
        for t in self.spaces.slots_sharing(inst) {
            let b = t * STATE_WORDS;
            self.state[b + S_XPAGE..b + S_XPAGE + 2].fill(0);
        }
        self.state_dirty = true;
        if ops.is_empty() {
            return;
        }
        // What was read back stays true of the frames these ops write (a write at an unaligned
        // edge of a page just populated must not wait for a read-back of zeros).
        for o in ops {
            match *o {
                FrameOp::Zero(f) => {
                    self.frames_seen.insert(f, vec![0; PAGE as usize]);
                }
                FrameOp::Copy { from, to } => match self.frames_seen.get(&from).cloned() {
                    Some(page) => {
                        self.frames_seen.insert(to, page);
                    }
                    None => {
                        self.frames_seen.remove(&to);
                    }
                },
            }
        }
        let page = PAGE as u64;
        let copies: Vec<(u32, u32)> = ops
            .iter()
            .filter_map(|o| match *o {
                FrameOp::Copy { from, to } => Some((from, to)),
                FrameOp::Zero(_) => None,
            })
            .collect();
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        for o in ops {
            if let FrameOp::Zero(f) = *o {
                let (b, off) = self.frame_at(f);
                enc.clear_buffer(b, off, Some(page));
            }
        }
        if !copies.is_empty() {
            // WebGPU forbids a copy within one buffer, so the bytes go through a scratch buffer.
            let scratch = storage(
                &self.gpu.device,
                "frames",
                copies.len() as u64 * page,
                wgpu::BufferUsages::empty(),
            );
            for (k, (from, _)) in copies.iter().enumerate() {
                let (b, off) = self.frame_at(*from);
                enc.copy_buffer_to_buffer(b, off, &scratch, k as u64 * page, page);
            }
            for (k, (_, to)) in copies.iter().enumerate() {
                let (b, off) = self.frame_at(*to);
                enc.copy_buffer_to_buffer(&scratch, k as u64 * page, b, off, page);
            }
        }
        self.gpu.queue.submit([enc.finish()]);
    }

    /// Clears an instance's cached translations (region cache, walk, crossing stash): after its
    /// tables changed.
    fn forget_translations(&mut self, inst: usize) {
        let b = inst * STATE_WORDS;
        self.state[b + S_RC..b + S_RC + 4].fill(0);
        self.state[b + S_WALK..b + S_WALK + 2].fill(0);
        self.state[b + S_XPAGE..b + S_XPAGE + 2].fill(0);
        self.state_dirty = true;
    }

    /// Gives back an instance's memory and code map: an empty address space (its state words
    /// stay).
    pub fn free_instance(&mut self, inst: usize) {
        self.spaces.clear(inst);
        self.state[inst * STATE_WORDS + S_PTROOT] = self.spaces.root(inst);
        self.forget_translations(inst);
        let p = self.map_pages as usize;
        self.codemap[inst * p..(inst + 1) * p].fill(NO_CODE);
        self.dirty_codemap(inst * p, (inst + 1) * p);
    }

    /// An empty address space, zeroed state and V registers, no code (exec).
    pub fn reset_instance(&mut self, inst: usize) {
        self.vregs_seen.insert(inst, [0; 32]);
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        enc.clear_buffer(
            &self.vreg,
            self.vreg_offset(inst),
            Some(VREG_STRIDE as u64 * 16),
        );
        self.gpu.queue.submit([enc.finish()]);
        self.free_instance(inst);
        let root = self.spaces.root(inst);
        let s = self.st_mut(inst);
        s.fill(0);
        s[S_PTROOT] = root;
        self.profile.seen[inst] = 0;
    }

    /// Adds one decoded page to the code buffer, growing it when full; returns its slot.
    pub fn add_code_page(&mut self, page: &[Decoded]) -> u32 {
        assert_eq!(page.len() as u64, INSNS_PER_PAGE);
        if self.dec_slots == self.dec_capacity {
            let cap = self.dec_capacity * 2;
            let bytes = cap as u64 * INSNS_PER_PAGE * (DECODED_WORDS as u64 * 4);
            let dec = storage(&self.gpu.device, "dec", bytes, wgpu::BufferUsages::empty());
            let mut enc = self.gpu.device.create_command_encoder(&Default::default());
            enc.copy_buffer_to_buffer(&self.dec, 0, &dec, 0, self.dec.size());
            self.gpu.queue.submit([enc.finish()]);
            self.dec = dec;
            self.dec_capacity = cap;
            self.rebind();
        }
        let slot = self.dec_slots;
        self.dec_slots += 1;
        let off = slot as u64 * INSNS_PER_PAGE * DECODED_WORDS as u64 * 4;
        self.gpu
            .queue
            .write_buffer(&self.dec, off, bytemuck::cast_slice(page));
        slot
    }

    /// The entry of the code map for the page at `page_addr`: its offset from the instance's
    /// code base in pages, if inside the map.
    fn code_index(&self, inst: usize, page_addr: u64) -> Option<usize> {
        let rel = page_addr.checked_sub(self.word64(inst, S_CODE_BASE))? >> 12;
        (rel < self.map_pages as u64).then(|| inst * self.map_pages as usize + rel as usize)
    }

    /// Marks code map entries `[a, b)` for the next upload.
    fn dirty_codemap(&mut self, a: usize, b: usize) {
        self.codemap_dirty = Some(match self.codemap_dirty {
            Some((x, y)) => (x.min(a), y.max(b)),
            None => (a, b),
        });
    }

    /// Points one instance's page at a decoded slot (or `NO_CODE`), and marks the page in its
    /// tables (a write to it stops the guest, which then drops the decode). Pages outside the
    /// code map stay unmapped (a jump there is a fetch fault).
    pub fn map_code(&mut self, inst: usize, page_addr: u64, slot: u32) {
        let Some(i) = self.code_index(inst, page_addr) else {
            return;
        };
        self.codemap[i] = slot;
        self.dirty_codemap(i, i + 1);
        self.spaces.mark_code(inst, page_addr, slot != NO_CODE);
    }

    /// Unmaps the decoded code of the pages of `[addr, addr + len)` inside the code map.
    pub fn forget_code(&mut self, inst: usize, addr: u64, len: u64) {
        // The code maps are per slot, the mark per page of the space: every thread drops it.
        for t in self.spaces.slots_sharing(inst) {
            self.forget_code_one(t, addr, len);
        }
    }

    fn forget_code_one(&mut self, inst: usize, addr: u64, len: u64) {
        let base = self.word64(inst, S_CODE_BASE);
        let lo = addr.max(base) & !(PAGE as u64 - 1);
        let hi = addr
            .saturating_add(len)
            .min(base + self.map_pages as u64 * PAGE as u64);
        let mut p = lo;
        while p < hi {
            if self.code_slot(inst, p) != NO_CODE {
                self.map_code(inst, p, NO_CODE);
            }
            p += PAGE as u64;
        }
    }

    pub fn code_slot(&self, inst: usize, page_addr: u64) -> u32 {
        self.code_index(inst, page_addr)
            .map_or(NO_CODE, |i| self.codemap[i])
    }

    /// Writes the lane map (the state buffer's last `instances` words: invocation i runs the
    /// instance the map's word i names, `LANE_NONE` past the end) and returns how many lanes
    /// it names: the instances the shader would run, in order. A dispatch covers only those,
    /// so blocked, stopped and empty slots take no invocation, and lavapipe, which hands each
    /// CPU thread an equal run of consecutive workgroups, gives each thread its share of the
    /// running guests (with every slot dispatched, 32 running instances among 64 slots ran on
    /// one of two threads, and a forking batch's children on one).
    fn map_lanes(&mut self) -> u32 {
        let n = self.instances();
        let base = n * STATE_WORDS;
        let mut k = 0;
        for i in 0..n {
            if Stop::dispatched(self.state[i * STATE_WORDS + S_STATUS]) {
                if self.state[base + k] != i as u32 {
                    self.state[base + k] = i as u32;
                    self.state_dirty = true;
                }
                k += 1;
            }
        }
        for w in &mut self.state[base + k..base + n] {
            if *w != LANE_NONE {
                *w = LANE_NONE;
                self.state_dirty = true;
            }
        }
        k as u32
    }

    /// Waits for `m`: a native device is polled to idle; in a browser the event loop runs the
    /// callbacks while this future waits.
    async fn mapped(&self, m: Mapping) -> Result<(), GpuError> {
        #[cfg(not(target_arch = "wasm32"))]
        self.gpu
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Wait(e.to_string()))?;
        m.await
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// [`Machine::submit_async`], waiting for the device (native hosts).
    pub fn submit(&mut self, dispatches: u32, quiet: bool) -> Result<Vec<Vec<u32>>, GpuError> {
        pollster::block_on(self.submit_async(dispatches, quiet))
    }

    /// Whether a host access found guest memory not yet read back (only where readbacks cannot
    /// block): [`Machine::fetch_wanted`] reads it, then the access is retried.
    pub fn wants_frames(&self) -> bool {
        !self.frames_wanted.is_empty() || !self.vregs_wanted.is_empty()
    }

    /// Deferred reads: slot's V registers as read back since the submit, else noted as wanted
    /// ([`MemError::Pending`]).
    pub fn vregs_deferred(&mut self, slot: usize) -> Result<[u128; 32], MemError> {
        match self.vregs_seen.get(&slot) {
            Some(v) => Ok(*v),
            None => {
                self.vregs_wanted.insert(slot);
                Err(MemError::Pending)
            }
        }
    }

    /// Reads back the frames behind `ranges` of these slots' memory (a syscall's arguments)
    /// before the host looks at them, where readbacks cannot block: one round trip instead of
    /// one retry per buffer.
    pub fn want_ranges(&mut self, slot: usize, ranges: &[(u64, u64)]) {
        for &(a, n) in ranges {
            if let Some(pieces) = self.spaces.pieces(slot, a, n) {
                for f in pieces.into_iter().filter_map(|p| p.1) {
                    if !self.frames_seen.contains_key(&f) {
                        self.frames_wanted.insert(f);
                    }
                }
            }
        }
    }

    /// Reads the wanted frames back (one submit, one mapping), for the host's retried accesses.
    pub async fn fetch_wanted(&mut self) -> Result<(), GpuError> {
        let frames: Vec<u32> = std::mem::take(&mut self.frames_wanted)
            .into_iter()
            .collect();
        let vslots: Vec<usize> = std::mem::take(&mut self.vregs_wanted).into_iter().collect();
        if frames.is_empty() && vslots.is_empty() {
            return Ok(());
        }
        let fsize = frames.len() as u64 * PAGE as u64;
        let size = fsize + vslots.len() as u64 * VREGS_BYTES;
        let rb = readback(&self.gpu.device, "frames-rb", size);
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        for (i, &f) in frames.iter().enumerate() {
            let (b, off) = self.frame_at(f);
            enc.copy_buffer_to_buffer(b, off, &rb, i as u64 * PAGE as u64, PAGE as u64);
        }
        for (i, &slot) in vslots.iter().enumerate() {
            let at = fsize + i as u64 * VREGS_BYTES;
            enc.copy_buffer_to_buffer(&self.vreg, self.vreg_offset(slot), &rb, at, VREGS_BYTES);
        }
        self.gpu.queue.submit([enc.finish()]);
        let slice = rb.slice(..size);
        self.mapped(Mapping::read(&[slice])).await?;
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| GpuError::Map(e.to_string()))?;
            for (i, &f) in frames.iter().enumerate() {
                let at = i * PAGE as usize;
                self.frames_seen
                    .insert(f, data[at..at + PAGE as usize].to_vec());
            }
            for (i, &slot) in vslots.iter().enumerate() {
                let at = (fsize + i as u64 * VREGS_BYTES) as usize;
                let v = vregs_from(&data[at..at + VREGS_BYTES as usize]);
                self.vregs_seen.insert(slot, v);
            }
        }
        rb.unmap();
        Ok(())
    }

    /// Guest memory from the frames read back since the last submit (no blocking readback):
    /// missing frames are noted and the access fails with [`MemError::Pending`].
    pub(crate) fn read_seen(
        &mut self,
        inst: usize,
        addr: u64,
        len: usize,
    ) -> Result<Vec<u8>, MemError> {
        let pieces = self.pieces(inst, addr, len as u64)?;
        let mut out = vec![0u8; len];
        let mut missed = false;
        for (a, at, n) in pieces {
            let Some(f) = at else { continue };
            match self.frames_seen.get(&f) {
                Some(page) => {
                    let k = (a - addr) as usize;
                    let o = (a & 0xfff) as usize;
                    out[k..k + n as usize].copy_from_slice(&page[o..o + n as usize]);
                }
                None => {
                    self.frames_wanted.insert(f);
                    missed = true;
                }
            }
        }
        if missed {
            Err(MemError::Pending)
        } else {
            Ok(out)
        }
    }

    /// GARM_TIMELINE's line for a submit of `dispatches` pairs that took `gpu`: where the
    /// instructions of all instances stand, and how many of them ran translated.
    fn timeline_line(&self, dispatches: u32, gpu: Duration) {
        let sum = |w: usize| -> u64 { (0..self.instances()).map(|i| self.word64(i, w)).sum() };
        eprintln!(
            "garm: timeline: {:.4} s: {dispatches} dispatches, {:.2} ms, {} instructions retired, {} translated",
            crate::tier::elapsed(),
            gpu.as_secs_f64() * 1e3,
            sum(S_COUNT),
            sum(S_TIERED)
        );
    }

    /// Records `dispatches` dispatches in one submit, then reads back state and output rings.
    /// Returns the output words per instance (records, see [`OUT_WORDS`]).
    pub async fn submit_async(
        &mut self,
        dispatches: u32,
        quiet: bool,
    ) -> Result<Vec<Vec<u32>>, GpuError> {
        self.frames_seen.clear();
        self.vregs_seen.clear();
        let lanes = self.map_lanes();
        let q = &self.gpu.queue;
        if self.state_dirty {
            q.write_buffer(&self.state_buf, 0, bytemuck::cast_slice(&self.state));
            self.state_dirty = false;
        }
        if let Some((a, b)) = self.codemap_dirty.take() {
            q.write_buffer(
                &self.codemap_buf,
                (a * 4) as u64,
                bytemuck::cast_slice(&self.codemap[a..b]),
            );
        }
        self.upload_tables();
        self.poll_tier();
        // In translate mode a new set's driver compile happens in this submit, the guests
        // waiting (the tier compiles on the caller's thread, and lavapipe compiles at the first
        // dispatch): counted as compile time, not execution.
        let compiles = std::mem::take(&mut self.tier.fresh) && self.tier.sync;
        // A first dispatch compiles (on lavapipe, in LLVM): never at the same time as the tier's
        // warm-up on the other device (LLVM 15 in Mesa aborted once under two compiles at once).
        let first = !self.dispatched[self.variant]
            || (self.tier.pipeline().is_some() && !self.dispatched[32]);
        let _llvm = first.then(tiered::llvm_lock);
        self.dispatched[self.variant] = true;
        self.dispatched[32] |= self.tier.pipeline().is_some();
        let t0 = Instant::now();
        let mut enc = self.gpu.device.create_command_encoder(&Default::default());
        let interp = self.variants[self.variant].as_ref();
        let interp = interp.expect("the running variant is compiled");
        // With translated regions, each interpreter dispatch is followed by the tier's (lanes
        // yield to it at a region's entry).
        let tier = self.tier.pipeline();
        let groups = lanes.div_ceil(WORKGROUP).max(1);
        let timed = self.timing.as_ref().filter(|_| {
            // And the first submit with translated code, so a short run splits too.
            let first_tier = tier.is_some() && !self.timed_tier;
            !quiet
                && dispatches <= Timing::DISPATCHES
                && (self.stats.submits.is_multiple_of(TIMING_EVERY) || first_tier)
        });
        self.timed_tier |= timed.is_some() && tier.is_some();
        // Each end a query writes, in order, and whether it ends a tier dispatch.
        let mut ends: Vec<(u32, bool)> = Vec::new();
        match timed {
            // A pass per dispatch, its end timestamped (the first's start too).
            Some(t) => {
                for d in 0..dispatches {
                    for (pipe, is_tier) in
                        std::iter::once((interp, false)).chain(tier.map(|p| (p, true)))
                    {
                        let end = ends.len() as u32 + 1;
                        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                            label: Some("cpu"),
                            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                                query_set: &t.set,
                                beginning_of_pass_write_index: (d == 0 && !is_tier).then_some(0),
                                end_of_pass_write_index: Some(end),
                            }),
                        });
                        pass.set_bind_group(0, &self.bind_group, &[]);
                        pass.set_pipeline(pipe);
                        pass.dispatch_workgroups(groups, 1, 1);
                        ends.push((end, is_tier));
                    }
                }
                let n = ends.len() as u32 + 1;
                enc.resolve_query_set(&t.set, 0..n, &t.resolve, 0);
                enc.copy_buffer_to_buffer(&t.resolve, 0, &t.rb, 0, 8 * n as u64);
            }
            None => {
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("cpu"),
                    timestamp_writes: None,
                });
                pass.set_bind_group(0, &self.bind_group, &[]);
                for _ in 0..dispatches {
                    pass.set_pipeline(interp);
                    pass.dispatch_workgroups(groups, 1, 1);
                    if let Some(t) = tier {
                        pass.set_pipeline(t);
                        pass.dispatch_workgroups(groups, 1, 1);
                    }
                }
            }
        }
        let ssize = self.state_buf.size();
        let osize = self.out.size();
        enc.copy_buffer_to_buffer(&self.state_buf, 0, &self.state_rb, 0, ssize);
        enc.copy_buffer_to_buffer(&self.out, 0, &self.out_rb, 0, osize);
        self.gpu.queue.submit([enc.finish()]);
        let s = self.state_rb.slice(..);
        let o = self.out_rb.slice(..);
        let tslice = timed.map(|t| t.rb.slice(..8 * (ends.len() as u64 + 1)));
        let slices: Vec<wgpu::BufferSlice> = [s, o].into_iter().chain(tslice).collect();
        self.mapped(Mapping::read(&slices)).await?;
        let t1 = Instant::now();
        if compiles {
            self.stats.tier_compile += t1 - t0;
            self.stats.tier_sync = true;
        }
        if let (Some(t), Some(ts)) = (timed, tslice) {
            {
                let data = ts
                    .get_mapped_range()
                    .map_err(|e| GpuError::Map(e.to_string()))?;
                let ticks: &[u64] = bytemuck::cast_slice(&data);
                let mut prev = ticks[0];
                for &(i, is_tier) in &ends {
                    let d = Duration::from_nanos(
                        (ticks[i as usize].saturating_sub(prev) as f64 * t.period) as u64,
                    );
                    prev = ticks[i as usize];
                    if is_tier {
                        self.stats.tier_gpu += d;
                    } else {
                        self.stats.interp_gpu += d;
                    }
                }
                self.stats.timed = true;
            }
            t.rb.unmap();
        }
        {
            let data = s
                .get_mapped_range()
                .map_err(|e| GpuError::Map(e.to_string()))?;
            self.state.copy_from_slice(bytemuck::cast_slice(&data));
        }
        self.state_rb.unmap();
        let mut outs = vec![Vec::new(); self.instances()];
        {
            let data = o
                .get_mapped_range()
                .map_err(|e| GpuError::Map(e.to_string()))?;
            let words: &[u32] = bytemuck::cast_slice(&data);
            for (i, out) in outs.iter_mut().enumerate() {
                let len = self.state[i * STATE_WORDS + S_OUT_LEN] as usize;
                if len > 0 {
                    let base = i * OUT_WORDS as usize;
                    out.extend_from_slice(&words[base..base + len.min(OUT_WORDS as usize)]);
                    self.state[i * STATE_WORDS + S_OUT_LEN] = 0;
                    self.state_dirty = true;
                }
            }
        }
        self.out_rb.unmap();
        if crate::tier::timeline() {
            self.timeline_line(dispatches, t1 - t0);
        }
        drop(_llvm);
        self.take_samples();
        self.take_tiered()?;
        self.take_probe()?;
        self.decay_units()?;
        if !quiet {
            self.stats.dispatches += dispatches as u64;
            self.stats.submits += 1;
            self.stats.gpu_time += t1 - t0;
            self.stats.readback_time += t1.elapsed();
        }
        Ok(outs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_holds_a_quarter_of_the_profile_by_its_own_samples() {
        let mut p = Profile::default();
        // Page 0x14000 decoded at slot 3: compress (0x14484..0x14628) takes 30 samples, a
        // helper at the page's start 10; page 0x15000 (slot 4) 60 at one instruction.
        for i in 0..30 {
            p.take(3, 300 + i % 20, SAMPLE_WEIGHT);
        }
        for i in 0..10 {
            p.take(3, 10 + i % 5, SAMPLE_WEIGHT);
        }
        for _ in 0..60 {
            p.take(4, 7, SAMPLE_WEIGHT);
        }
        assert!(p.holds_quarter(0x14484, 0x14628, 3));
        assert!(!p.holds_quarter(0x14000, 0x140ec, 3), "10 of 100");
        assert!(!p.holds_quarter(0x14484, 0x14628, 9), "another slot");
        assert!(
            !p.holds_quarter(0x15020, 0x16000, 4),
            "past the hot instruction"
        );
        assert!(
            p.holds_quarter(0x15014, 0x16000, 4),
            "a region to the page's end"
        );
        // Decay halves every count: the shares stay.
        p.decay();
        assert!(p.holds_quarter(0x14484, 0x14628, 3));
        assert!(!p.holds_quarter(0x14000, 0x140ec, 3));
    }
}
