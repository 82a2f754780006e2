//! Every WGSL source garm builds validates offline with naga, under both 64-bit preludes, and the
//! host-shader contract holds: the shader's constants, `Params` and bindings are the ones
//! `src/gpu/layout.rs` and `src/isa/form.rs` define, and no shader file keeps a copy of them.

use garm::gpu::layout::{self, Access, Params, Stop, BINDINGS, STATE_OFFSETS};
use garm::gpu::shader::{source, validate, Prelude, PARTS};
use garm::os::syscalls::SHADER_HANDLED;

/// A frame pool over this many bindings (of 2^15 frames) in the module the contract checks use.
const POOL: u32 = 3;

/// Every variant (set of optional units) validates, with the frame pool in one binding and in
/// several; the full one with several is returned for the contract checks.
fn module(p: Prelude) -> naga::Module {
    for v in [0, 1, 2, 4, 8, 16, 3, 7, 15, 31] {
        validate(&source(p, &SHADER_HANDLED, v, 1, 15), p == Prelude::U64)
            .unwrap_or_else(|e| panic!("variant {v}: {e}"));
    }
    validate(&source(p, &SHADER_HANDLED, 31, POOL, 15), p == Prelude::U64)
        .unwrap_or_else(|e| panic!("full variant: {e}"))
}

#[test]
fn cpu_shader_validates_with_u64_prelude() {
    module(Prelude::U64);
}

#[test]
fn cpu_shader_validates_with_vec2_prelude() {
    module(Prelude::Vec2);
}

#[test]
fn vec2_prelude_needs_no_int64() {
    assert!(
        !(0..32).any(|v| source(Prelude::Vec2, &SHADER_HANDLED, v, POOL, 15).contains("u64")),
        "the portable shader must not use u64"
    );
}

/// The value of the module's `const NAME: u32`, if it has one.
fn const_u32(m: &naga::Module, name: &str) -> Option<u32> {
    let (_, c) = m
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))?;
    match m.global_expressions[c.init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => Some(v),
        ref e => panic!("{name} is not a u32 literal: {e:?}"),
    }
}

#[test]
fn shader_constants_are_the_contract() {
    let m = module(Prelude::U64);
    let mut want: Vec<(String, u32)> = vec![("STATE_WORDS".into(), layout::STATE_WORDS as u32)];
    want.extend(
        STATE_OFFSETS
            .iter()
            .map(|(n, v)| (n.to_string(), *v as u32)),
    );
    want.extend(
        Stop::ALL
            .iter()
            .map(|s| (s.wgsl_name().to_string(), s.word())),
    );
    want.extend(
        SHADER_HANDLED
            .iter()
            .map(|(n, v)| (n.to_string(), *v as u32)),
    );
    want.extend([
        ("FAULT_READ".into(), layout::FAULT_READ),
        ("FAULT_WRITE".into(), layout::FAULT_WRITE),
        ("FAULT_EXEC".into(), layout::FAULT_EXEC),
        ("NO_CODE".into(), layout::NO_CODE),
        ("REGS".into(), garm::isa::form::REGS),
        ("R_ZR".into(), garm::isa::form::R_ZR),
        ("R_SINK".into(), garm::isa::form::R_SINK),
    ]);
    for (name, v) in want {
        assert_eq!(const_u32(&m, &name), Some(v), "shader constant {name}");
    }
}

#[test]
fn params_and_bindings_are_the_contract() {
    let m = module(Prelude::U64);
    let (_, params) = m
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("Params"))
        .expect("struct Params");
    let naga::TypeInner::Struct { members, span } = &params.inner else {
        panic!("Params is not a struct")
    };
    assert_eq!(*span as usize, std::mem::size_of::<Params>());
    assert_eq!(members.len() * 4, std::mem::size_of::<Params>());
    for (i, mem) in members.iter().enumerate() {
        assert_eq!(mem.offset as usize, i * 4, "Params.{:?}", mem.name);
    }
    let all = layout::bindings(POOL);
    assert_eq!(all.len(), BINDINGS.len() + POOL as usize - 1);
    for (binding, name, access, _) in &all {
        let (_, g) = m
            .global_variables
            .iter()
            .find(|(_, g)| g.name.as_deref() == Some(name.as_str()))
            .unwrap_or_else(|| panic!("binding {name}"));
        let rb = g.binding.as_ref().expect("bound");
        assert_eq!((rb.group, rb.binding), (0, *binding), "{name}");
        let space = match access {
            Access::Uniform => naga::AddressSpace::Uniform,
            Access::Read => naga::AddressSpace::Storage {
                access: naga::StorageAccess::LOAD,
            },
            Access::ReadWrite => naga::AddressSpace::Storage {
                access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
            },
        };
        assert_eq!(g.space, space, "{name}");
    }
}

#[test]
fn shader_files_hold_no_copy_of_the_contract() {
    for (file, text, ..) in PARTS {
        for line in text.lines() {
            let l = line.trim_start();
            assert!(
                !(l.starts_with("const ")
                    || l.starts_with("struct Params")
                    || l.starts_with("@group")),
                "{file}: `{line}` belongs in src/gpu/layout.rs (generated into the shader)"
            );
        }
        for (_, nr) in SHADER_HANDLED {
            assert!(
                !text.contains(&format!("== {nr}u")),
                "{file}: syscall number {nr} written by hand; use its SYS_ constant"
            );
        }
    }
}
