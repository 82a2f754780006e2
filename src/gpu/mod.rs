//! The GPU side: adapter choice, the CPU shader and the dispatch loop over guest instances.

pub mod layout;
pub mod shader;
