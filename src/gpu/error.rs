//! What can go wrong in the GPU layer: adapters, sizes, device waits, the decoded-code space.

/// A failure of the GPU layer (garm's own, never the guest's).
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    #[error(
        "no GPU adapter found: install a Vulkan driver (on Debian: mesa-vulkan-drivers libvulkan1)"
    )]
    NoAdapter,
    #[error("no adapter matches '{0}' (see `garm info`)")]
    NoMatch(String),
    #[error("cannot open {adapter}: {detail}")]
    Open { adapter: String, detail: String },
    #[error("the u64 prelude needs SHADER_INT64, which this adapter lacks")]
    NoInt64,
    #[error(
        "a guest memory pool of {need_mib} MiB is more than {adapter} binds ({max_mib} MiB): lower --pool"
    )]
    MemoryTooBig {
        need_mib: u64,
        adapter: String,
        max_mib: u64,
    },
    #[error("decoded code filled {0} pages (the adapter's buffer limit): too much distinct code")]
    CodeFull(u32),
    #[error("GPU wait failed: {0}")]
    Wait(String),
    #[error("cannot map readback: {0}")]
    Map(String),
    /// A shader variant failed validation (garm's bug, or a broken GARM_SHADER_DIR file).
    #[error("the CPU shader (variant {variant}) does not compile: {detail}")]
    Shader { variant: u32, detail: String },
}
