//! Embeds the guest runtime (guest/rt, guest/include), the linker script and garm's own C
//! compiler (guest/cc) in the binary, so `garm cc` and `garm selfhost` work from any directory.

use std::fmt::Write as _;
use std::path::Path;

fn walk(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p.to_string_lossy().into_owned());
        }
    }
}

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap();
    let mut files = Vec::new();
    for d in ["guest/rt", "guest/include", "linker"] {
        walk(&Path::new(&root).join(d), &mut files);
        println!("cargo:rerun-if-changed={d}");
    }
    let mut s = String::from("/// (path relative to the repository, contents) of every runtime file.\npub static RUNTIME_FILES: &[(&str, &[u8])] = &[\n");
    for f in &files {
        let rel = f.strip_prefix(&format!("{root}/")).unwrap();
        writeln!(s, "    ({rel:?}, include_bytes!({f:?})),").unwrap();
    }
    s.push_str("];\n");
    // garm's own C compiler and its headers (not its tests): `garm selfhost` and `garm cc
    // --compiler garm` stage them for the guest.
    let mut cc = vec![
        format!("{root}/guest/cc/cc.c"),
        format!("{root}/guest/cc/fold.c"),
    ];
    walk(&Path::new(&root).join("guest/cc/include"), &mut cc);
    println!("cargo:rerun-if-changed=guest/cc/cc.c");
    println!("cargo:rerun-if-changed=guest/cc/fold.c");
    println!("cargo:rerun-if-changed=guest/cc/include");
    s.push_str("/// (path relative to the repository, contents) of garm's C compiler and its headers.\npub static GARMCC_FILES: &[(&str, &[u8])] = &[\n");
    for f in &cc {
        let rel = f.strip_prefix(&format!("{root}/")).unwrap();
        writeln!(s, "    ({rel:?}, include_bytes!({f:?})),").unwrap();
    }
    s.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("runtime_files.rs");
    std::fs::write(out, s).unwrap();
}
