//! Static PIE (`garm cc --pie`): ET_DYN with no interpreter, loaded at a bias and relocated by the
//! program itself. Each program runs on garm and under qemu-aarch64 (which loads it elsewhere) and
//! must print the same and exit the same.

mod common;
use common::*;
use std::path::PathBuf;
use std::process::Command;

/// Builds `guest/<rel>.c` as a static PIE and checks it is ET_DYN.
fn build_pie(rel: &str) -> PathBuf {
    let out = build_with(rel, &["--pie"]);
    let h = Command::new("llvm-readelf")
        .arg("-h")
        .arg(&out)
        .output()
        .expect("run llvm-readelf");
    let h = String::from_utf8_lossy(&h.stdout);
    assert!(
        h.lines()
            .any(|l| l.trim_start().starts_with("Type:") && l.contains("DYN")),
        "{rel} is not ET_DYN:\n{h}"
    );
    out
}

#[test]
fn sha256_demo_runs_as_static_pie() {
    let r = same_as_qemu(&build_pie("demos/sha256"), &[], &["4"], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn data_pointers_and_constructors_are_relocated() {
    let r = same_as_qemu(&build_pie("tests/pie/reloc"), &[], &[], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(
        r.out().contains("counter 42 middle 9 next 16"),
        "{}",
        r.out()
    );
}

#[test]
fn corpus_programs_with_pointer_tables_run_as_static_pie() {
    for rel in [
        "tests/corpus/funcptr_callbacks",
        "tests/corpus/switch_big",
        "tests/corpus/printf_formats",
    ] {
        same_as_qemu(&build_pie(rel), &[], &[], b"");
    }
}

/// The value of `key` (hex) in showargs output.
fn aux(out: &str, key: &str) -> u64 {
    let v = out
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} in {out}"));
    u64::from_str_radix(v.trim().trim_start_matches("0x"), 16).unwrap()
}

/// showargs output with env lines sorted and AT_PHDR/AT_ENTRY replaced by their distance: qemu
/// picks its own load bias for an ET_DYN.
fn normalised(s: &str) -> Vec<String> {
    let d = aux(s, "AT_ENTRY ").wrapping_sub(aux(s, "AT_PHDR "));
    let lines: Vec<String> = s
        .lines()
        .map(|l| {
            if l.starts_with("AT_PHDR ") || l.starts_with("AT_ENTRY ") {
                format!("AT_ENTRY - AT_PHDR = {d:#x}")
            } else {
                l.to_string()
            }
        })
        .collect();
    env_sorted(&lines.join("\n"))
}

#[test]
fn static_pie_argv_envp_and_auxv_match_qemu() {
    let elf = build_pie("tests/os/showargs");
    let e = elf.to_str().unwrap();
    let g = garm(&[e, "one", "two three"], b"");
    let q = qemu(&elf, &["one", "two three"], &[], b"");
    assert_eq!(g.status, 0, "{}", g.stderr);
    assert_eq!(normalised(&g.out()), normalised(&q.out()));
    // garm's bias puts the file's first page (ELF header, then program headers) at 0x10000.
    let bytes = std::fs::read(&elf).unwrap();
    let e_entry = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
    let e_phoff = u64::from_le_bytes(bytes[32..40].try_into().unwrap());
    assert_eq!(aux(&g.out(), "AT_PHDR "), 0x10000 + e_phoff);
    assert_eq!(aux(&g.out(), "AT_ENTRY "), 0x10000 + e_entry);
}

#[test]
fn static_pie_pipeline_with_fork_and_execve() {
    pipeline_same_as_qemu(&build_pie("tests/os/pipeline"));
}

#[test]
fn pie_with_a_missing_interpreter_is_refused_clearly() {
    // The static PIE with its PT_DYNAMIC header turned into PT_INTERP: a dynamically linked PIE
    // as far as a loader can tell, whose loader is nowhere.
    let mut bytes = std::fs::read(build_pie("demos/hello")).unwrap();
    let phoff = u64::from_le_bytes(bytes[32..40].try_into().unwrap()) as usize;
    let phnum = u16::from_le_bytes(bytes[56..58].try_into().unwrap()) as usize;
    let dynamic = (0..phnum)
        .map(|i| phoff + i * 56)
        .find(|&p| u32::from_le_bytes(bytes[p..p + 4].try_into().unwrap()) == 2)
        .expect("PT_DYNAMIC");
    bytes[dynamic..dynamic + 4].copy_from_slice(&3u32.to_le_bytes());
    let p = tmp().join(format!("interp-pie-{}.elf", std::process::id()));
    std::fs::write(&p, &bytes).unwrap();
    let r = garm(&[p.to_str().unwrap()], b"");
    assert_eq!(r.status, 1, "{}", r.stderr);
    // Its "loader" is whatever bytes PT_DYNAMIC pointed at: no sysroot has it.
    assert!(
        r.stderr.contains(": the program's dynamic loader \"")
            && r.stderr.contains("is not in the sysroot (-L DIR"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "one line: {}", r.stderr);
}
