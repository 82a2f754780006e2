//! Assembles the CPU shader from a 64-bit prelude, the generated decoded-form constants and the
//! execution body, and validates it offline with naga.

use crate::isa::form::wgsl_constants;

pub const PRELUDE_U64: &str = include_str!("../../shaders/prelude_u64.wgsl");
pub const PRELUDE_VEC2: &str = include_str!("../../shaders/prelude_vec2.wgsl");
pub const CPU_BODY: &str = include_str!("../../shaders/cpu.wgsl");

/// Which 64-bit representation the shader uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prelude {
    /// Native `u64` (needs SHADER_INT64).
    U64,
    /// `vec2<u32>`, core WGSL only.
    Vec2,
}

impl Prelude {
    pub fn name(self) -> &'static str {
        match self {
            Prelude::U64 => "u64",
            Prelude::Vec2 => "vec2<u32>",
        }
    }
}

/// The complete WGSL source of the CPU shader.
pub fn source(prelude: Prelude) -> String {
    // GARM_SHADER_DIR reads the shader files from disk instead, for iterating on the shader
    // without a rebuild.
    if let Some(dir) = std::env::var_os("GARM_SHADER_DIR") {
        let dir = std::path::PathBuf::from(dir);
        let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap_or_default();
        let p = read(match prelude {
            Prelude::U64 => "prelude_u64.wgsl",
            Prelude::Vec2 => "prelude_vec2.wgsl",
        });
        return format!("{p}\n{}\n{}", wgsl_constants(), read("cpu.wgsl"));
    }
    let p = match prelude {
        Prelude::U64 => PRELUDE_U64,
        Prelude::Vec2 => PRELUDE_VEC2,
    };
    format!("{p}\n{}\n{CPU_BODY}", wgsl_constants())
}

/// Parses and validates WGSL with naga; no GPU needed. The error names the line.
pub fn validate(src: &str, int64: bool) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(src).map_err(|e| e.emit_to_string(src))?;
    let mut caps = naga::valid::Capabilities::empty();
    if int64 {
        caps |= naga::valid::Capabilities::SHADER_INT64;
    }
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), caps)
        .validate(&module)
        .map_err(|e| e.emit_to_string(src))?;
    Ok(module)
}
