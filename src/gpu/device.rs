//! Adapter choice and device creation: the best adapter by default (a real GPU before a software
//! one), or the one `--adapter NAME` / `GARM_ADAPTER` names.

use super::GpuError;

/// An open device with what garm needs to know about it.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    pub limits: wgpu::Limits,
    pub int64: bool,
    /// The adapter, for a second device (see [`Gpu::twin`]).
    pub adapter: wgpu::Adapter,
}

/// The Vulkan loader complains on stderr when XDG_RUNTIME_DIR is unset (as under CI); give it a
/// private directory so the guest's stderr stays the guest's.
fn quiet_vulkan_loader() {
    if cfg!(unix) && std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        let dir = std::env::temp_dir().join("garm-runtime");
        if std::fs::create_dir_all(&dir).is_ok() {
            std::env::set_var("XDG_RUNTIME_DIR", &dir);
        }
    }
}

fn instance() -> wgpu::Instance {
    quiet_vulkan_loader();
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::all(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

fn rank(t: wgpu::DeviceType) -> u32 {
    match t {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

fn backend_rank(b: wgpu::Backend) -> u32 {
    match b {
        wgpu::Backend::Vulkan | wgpu::Backend::Metal | wgpu::Backend::Dx12 => 0,
        _ => 1,
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn adapters() -> Vec<wgpu::Adapter> {
    pollster::block_on(adapters_async())
}

async fn adapters_async() -> Vec<wgpu::Adapter> {
    let mut v = instance().enumerate_adapters(wgpu::Backends::all()).await;
    v.sort_by_key(|a| {
        let i = a.get_info();
        (rank(i.device_type), backend_rank(i.backend))
    });
    v
}

#[cfg(not(target_arch = "wasm32"))]
/// How many adapters garm sees (`#0`..`#N-1` name them, in `garm info`'s order).
pub fn adapter_count() -> usize {
    adapters().len()
}

#[cfg(not(target_arch = "wasm32"))]
/// The `#N` that names the adapter called `name` on `backend` (its `Debug` name) in
/// [`Gpu::open`]'s list: another process opens the very adapter a run used.
pub fn adapter_id(name: &str, backend: &str) -> Option<String> {
    adapters()
        .iter()
        .position(|a| {
            let i = a.get_info();
            i.name == name && format!("{:?}", i.backend) == backend
        })
        .map(|n| format!("#{n}"))
}

#[cfg(not(target_arch = "wasm32"))]
/// A human-readable list of adapters with backend, type, key limits and features (`garm info`).
pub fn describe_adapters() -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let list = adapters();
    if list.is_empty() {
        s.push_str("no adapters found (install mesa-vulkan-drivers and libvulkan1 for lavapipe)\n");
    }
    for (i, a) in list.iter().enumerate() {
        let info = a.get_info();
        let l = a.limits();
        let _ = writeln!(
            s,
            "[{i}] {} ({:?}, {:?}){}",
            info.name,
            info.backend,
            info.device_type,
            if i == 0 { "  <- default" } else { "" }
        );
        let _ = writeln!(s, "    driver: {} {}", info.driver, info.driver_info);
        let _ = writeln!(
            s,
            "    limits: max_storage_buffer_binding_size {} MiB, max_buffer_size {} MiB, max_storage_buffers_per_shader_stage {}, max_compute_invocations_per_workgroup {}",
            l.max_storage_buffer_binding_size >> 20,
            l.max_buffer_size >> 20,
            l.max_storage_buffers_per_shader_stage,
            l.max_compute_invocations_per_workgroup
        );
        let shift = super::machine::frame_shift_in(&l);
        let k = super::machine::pool_bindings_max_in(&l);
        let _ = writeln!(
            s,
            "    guest memory pool: {} frames of 4 KiB ({} MiB) per binding, up to {k} bindings ({} MiB; each beyond the first costs every access on a CPU driver)",
            1u64 << shift,
            (4096u64 << shift) >> 20,
            ((4096u64 << shift) * k as u64) >> 20
        );
        let _ = writeln!(s, "    features: {:?}", a.features());
    }
    s
}

impl Gpu {
    #[cfg(not(target_arch = "wasm32"))]
    /// Opens the adapter whose name contains `want` (case-insensitive), else the best one;
    /// `#N` names the N-th adapter of `garm info`'s list (two adapters may share a name: lavapipe's
    /// Vulkan and GL ones).
    pub fn open(want: Option<&str>, allow_int64: bool) -> Result<Gpu, GpuError> {
        pollster::block_on(Gpu::open_async(want, allow_int64))
    }

    /// [`Gpu::open`] for hosts that cannot block (a browser's WebGPU).
    pub async fn open_async(want: Option<&str>, allow_int64: bool) -> Result<Gpu, GpuError> {
        let list = adapters_async().await;
        let index = want.and_then(|w| w.strip_prefix('#')?.parse::<usize>().ok());
        let adapter = match want {
            Some(w) if index.is_some() => list
                .into_iter()
                .nth(index.unwrap_or_default())
                .ok_or_else(|| GpuError::NoMatch(w.to_string()))?,
            Some(w) => {
                let lw = w.to_lowercase();
                list.into_iter()
                    .find(|a| {
                        let i = a.get_info();
                        i.name.to_lowercase().contains(&lw)
                            || format!("{:?}", i.backend).to_lowercase() == lw
                    })
                    .ok_or_else(|| GpuError::NoMatch(w.to_string()))?
            }
            None => list.into_iter().next().ok_or(GpuError::NoAdapter)?,
        };
        let info = adapter.get_info();
        let int64 = allow_int64 && adapter.features().contains(wgpu::Features::SHADER_INT64);
        let mut features = wgpu::Features::empty();
        if int64 {
            features |= wgpu::Features::SHADER_INT64;
        }
        // Timestamps around the dispatches split `--stats`'s GPU time between the tiers.
        if cfg!(not(target_arch = "wasm32"))
            && adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            features |= wgpu::Features::TIMESTAMP_QUERY;
        }
        let limits = adapter.limits();
        let (device, queue) = request_async(&adapter, features, &limits).await?;
        Ok(Gpu {
            device,
            queue,
            info,
            limits,
            int64,
            adapter,
        })
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Another device on the same adapter, with the same features and limits: its own queue,
    /// so work on it (the translation tier's warm-up compile) never waits behind this one's.
    pub fn twin(&self) -> Result<(wgpu::Device, wgpu::Queue), GpuError> {
        request(&self.adapter, self.device.features(), &self.limits)
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// A device and queue on `adapter`.
pub(crate) fn request(
    adapter: &wgpu::Adapter,
    features: wgpu::Features,
    limits: &wgpu::Limits,
) -> Result<(wgpu::Device, wgpu::Queue), GpuError> {
    pollster::block_on(request_async(adapter, features, limits))
}

async fn request_async(
    adapter: &wgpu::Adapter,
    features: wgpu::Features,
    limits: &wgpu::Limits,
) -> Result<(wgpu::Device, wgpu::Queue), GpuError> {
    adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("garm"),
            required_features: features,
            required_limits: limits.clone(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        })
        .await
        .map_err(|e| GpuError::Open {
            adapter: adapter.get_info().name,
            detail: e.to_string(),
        })
}
