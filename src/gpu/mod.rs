//! The GPU side: adapter choice ([`device`]), the CPU shader ([`shader`]), the state layout it
//! shares with the host ([`layout`]) the submit loop over guest instances ([`machine`]) and its page tables and address spaces ([`paging`], [`space`]), and the
//! translation tier's pipelines (`machine::tiered`).

pub mod device;
pub mod error;
pub mod layout;
pub mod machine;
pub mod paging;
pub mod shader;
pub mod space;

pub use error::GpuError;
