//! The profile of hot code (pc samples at dispatch ends, shared across instances): `--stats`
//! names the hottest code and the hottest region, and both lie in the function the program spends
//! its time in, by the ELF's own symbol table.

mod common;
use common::*;
use object::{Object, ObjectSymbol};

/// The function symbol of `elf` that contains `addr`.
fn function_at(elf: &[u8], addr: u64) -> Option<String> {
    let f = object::File::parse(elf).expect("an ELF");
    f.symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.size() > 0)
        .find(|s| (s.address()..s.address() + s.size()).contains(&addr))
        .and_then(|s| s.name().ok().map(String::from))
}

/// The `--stats` line containing `what`, and what follows its "): " (the list).
fn stats_list<'a>(stderr: &'a str, what: &str) -> &'a str {
    let line = stderr
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no '{what}' line in {stderr}"));
    line.split("): ").nth(1).expect("a list")
}

/// The hex number a list item starts with.
fn leading_hex(s: &str) -> u64 {
    let h: String = s
        .trim_start_matches("0x")
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    u64::from_str_radix(&h, 16).unwrap()
}

#[test]
fn the_hottest_code_is_where_sha256_spends_its_time() {
    let elf = build("demos/sha256");
    let e = elf.to_string_lossy().into_owned();
    // The interpreter's profile: translated code would make other code the hottest.
    let g = garm(
        &["--stats", "--tier", "interp", "--instances", "4", &e, "128"],
        b"",
    );
    assert_eq!(g.status, 0, "{}", g.stderr);
    // "... by N pc samples at dispatch ends): 0x10a40 61%, ..."
    let first = stats_list(&g.stderr, "hottest code");
    let addr = leading_hex(first);
    let share: f64 = first
        .split_whitespace()
        .nth(1)
        .unwrap()
        .trim_end_matches(['%', ','])
        .parse()
        .unwrap();
    let bytes = std::fs::read(&elf).unwrap();
    // A window may start before the function's first instruction: try its last one too.
    let f = function_at(&bytes, addr).or_else(|| function_at(&bytes, addr + 60));
    assert!(
        matches!(f.as_deref(), Some("compress" | "sha256_update")),
        "the hottest window {addr:#x} is in {f:?}: {first}"
    );
    assert!(share >= 10.0, "{first}");
    // The hottest region (a loop or a function: what the translation tier takes first) is
    // compress's too.
    let loops = stats_list(&g.stderr, "hottest regions");
    let start = leading_hex(loops);
    assert!(
        matches!(
            function_at(&bytes, start).as_deref(),
            Some("compress" | "sha256_update")
        ),
        "the hottest region {start:#x}: {loops}"
    );
}
