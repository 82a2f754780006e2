//! Per-instance state words and stop reasons, mirrored from the constants at the top of
//! shaders/cpu.wgsl (a test checks the two agree).

pub const STATE_WORDS: usize = 96;
pub const S_PC: usize = 64;
pub const S_NZCV: usize = 66;
pub const S_STATUS: usize = 67;
pub const S_TPIDR: usize = 68;
pub const S_COUNT: usize = 72;
pub const S_LIMIT: usize = 74;
pub const S_USTEP: usize = 76;
pub const S_FAULT_ADDR: usize = 80;
pub const S_FAULT_KIND: usize = 82;
pub const S_BRK: usize = 83;
pub const S_BRK_MIN: usize = 84;
pub const S_BRK_MAX: usize = 85;
pub const S_OUT_LEN: usize = 86;
pub const S_EXIT_CODE: usize = 90;
/// Bit 0: fd 1 writes to the console; bit 1: fd 2 does (the shader's fast write path).
pub const S_FASTFD: usize = 91;
/// Byte range holding decoded code: a store inside it stops the guest (ST_CODEMOD).
pub const S_CODE_LO: usize = 93;
pub const S_CODE_HI: usize = 94;

/// Why an instance stopped (S_STATUS).
pub mod st {
    pub const RUNNING: u32 = 0;
    pub const EXITED: u32 = 1;
    pub const SYSCALL: u32 = 2;
    pub const MEMFAULT: u32 = 3;
    pub const ILLEGAL: u32 = 4;
    pub const NEEDCODE: u32 = 5;
    pub const CODEMOD: u32 = 6;
    pub const LIMIT: u32 = 7;
    pub const BRK: u32 = 8;
    pub const WRITE: u32 = 9;
    pub const FETCHFAULT: u32 = 10;
    pub const LIMIT_RETRY: u32 = 11;
    pub const DCZVA: u32 = 12;
}

pub const FAULT_READ: u32 = 0;
pub const FAULT_WRITE: u32 = 1;

/// Code-map entry for a page with no decoded code.
pub const NO_CODE: u32 = u32::MAX;
/// Output ring per instance, in words (records: header `fd << 28 | len`, then the bytes).
pub const OUT_WORDS: u32 = 4096;
/// Steps per invocation per dispatch. Each step spends three of lavapipe's 65 535 loop
/// back-edges per dispatch (the step loop and the two bit-serial loops, which run once even with
/// no trips), so more would only be cut short by the limiter.
pub const ITERS: u32 = 21_000;
