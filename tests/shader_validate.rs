//! Every WGSL source garm builds validates offline with naga, under both 64-bit preludes.

use garm::gpu::shader::{source, validate, Prelude};

#[test]
fn cpu_shader_validates_with_u64_prelude() {
    validate(&source(Prelude::U64), true).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn cpu_shader_validates_with_vec2_prelude() {
    validate(&source(Prelude::Vec2), false).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn vec2_prelude_needs_no_int64() {
    assert!(
        !source(Prelude::Vec2).contains("u64"),
        "the portable shader must not use u64"
    );
}
