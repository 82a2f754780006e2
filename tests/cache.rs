//! The compile cache, through the `garm` binary with a private cache directory: a second build
//! runs neither clang nor ld.lld, an edited header is rebuilt, a corrupt entry is detected and
//! rebuilt, and `garm cache stats` / `clear` report and empty it.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn garm_in(cache: &Path, args: &[&str]) -> (bool, String, String) {
    let o = Command::new(garm_bin())
        .env("XDG_CACHE_HOME", cache)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn second_build_compiles_nothing() {
    let dir = tmp().join(format!("cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.join("cache");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("p.c");
    let hdr = dir.join("k.h");
    std::fs::write(&hdr, "#define K 5\n").unwrap();
    std::fs::write(&src, "#include <stdio.h>\n#include \"k.h\"\nint main(void) { printf(\"%d\\n\", K); return 0; }\n").unwrap();
    let (s, p) = (src.to_str().unwrap(), dir.join("p.elf"));
    let out = p.to_str().unwrap();
    let stats = || garm_in(&cache, &["cache", "stats"]).1;

    // Two compile entries per source: clang's IR (does the C use FP?) and the object.
    assert!(garm_in(&cache, &["cc", s, "-o", out]).0);
    assert!(stats().contains("compile: 0 hits, 2 misses"), "{}", stats());
    assert!(garm_in(&cache, &["cc", s, "-o", out]).0);
    let st = stats();
    assert!(
        st.contains("compile: 2 hits, 2 misses") && st.contains("link: 1 hits, 1 misses"),
        "{st}"
    );

    // An edited header is a miss, and the program sees it.
    std::fs::write(&hdr, "#define K 6\n").unwrap();
    let (ok, o, _) = garm_in(&cache, &["run", s]);
    assert!(ok && o == "6\n", "{o}");
    assert!(stats().contains("compile: 2 hits, 4 misses"), "{}", stats());

    // Corrupt every entry: detected, rebuilt, and the program still right.
    for e in std::fs::read_dir(cache.join("garm/objects"))
        .unwrap()
        .flatten()
    {
        let mut b = std::fs::read(e.path()).unwrap();
        b.truncate(b.len() - 3);
        std::fs::write(e.path(), b).unwrap();
    }
    let (ok, o, err) = garm_in(&cache, &["run", s]);
    assert!(ok && o == "6\n", "{o}{err}");
    assert!(err.contains("corrupt"), "{err}");
    assert!(stats().contains("1 corrupt entries rebuilt"), "{}", stats());

    assert!(garm_in(&cache, &["cache", "clear"]).0);
    assert!(stats().contains("entries: 0 "), "{}", stats());
    let _ = std::fs::remove_dir_all(&dir);
}
