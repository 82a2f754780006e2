//! The GPU side: adapter choice ([`device`]), the CPU shader ([`shader`]), the state layout it
//! shares with the host ([`layout`]) and the submit loop over guest instances ([`machine`]).

pub mod device;
pub mod error;
pub mod layout;
pub mod machine;
pub mod shader;

pub use error::GpuError;
