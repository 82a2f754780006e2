//! The GPU side: adapter choice ([`device`]), the CPU shader ([`shader`]), the state layout it
//! shares with the host ([`layout`]) the submit loop over guest instances ([`machine`]) and its page tables ([`paging`]).

pub mod device;
pub mod error;
pub mod layout;
pub mod machine;
pub mod paging;
pub mod shader;

pub use error::GpuError;
