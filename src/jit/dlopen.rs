//! The `dlopen` fallback of the native JIT (cargo feature `dlopen`), for hosts where the in-memory
//! loader cannot work: the same host objects are linked by clang into a shared object in a
//! temporary directory, which is `dlopen`ed (RTLD_NOW | RTLD_LOCAL) and removed again.

use super::JitError;
use crate::toolchain::Toolchain;
use crate::toolchain::{io_at, ToolchainError};
use std::ffi::{c_void, CString};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Linker script fragment: the objects' `.init_array`/`.fini_array` go into sections of other
/// names, so the shared object has no DT_INIT_ARRAY/DT_FINI_ARRAY. Otherwise the dynamic loader
/// would run guest constructors inside garm at `dlopen` (before the syscall table is set, and a
/// second time in the child) and destructors at `dlclose`; the runtime runs them in the child
/// from the `__init_array_*`/`__fini_array_*` symbols defined here, as the in-memory loader does.
const ARRAYS_LD: &str = "SECTIONS {
  .garm_init_array : {
    PROVIDE_HIDDEN(__init_array_start = .);
    KEEP(*(SORT_BY_INIT_PRIORITY(.init_array.*) .init_array))
    PROVIDE_HIDDEN(__init_array_end = .);
  }
  .garm_fini_array : {
    PROVIDE_HIDDEN(__fini_array_start = .);
    KEEP(*(SORT_BY_INIT_PRIORITY(.fini_array.*) .fini_array))
    PROVIDE_HIDDEN(__fini_array_end = .);
  }
} INSERT AFTER .data;
";

/// The linker's target: the host's, with Linux so clang links a shared object itself (it hands
/// a bare-metal x86_64 link to gcc).
#[cfg(target_arch = "aarch64")]
const LINK_TARGET: &str = "--target=aarch64-linux-gnu";
#[cfg(not(target_arch = "aarch64"))]
const LINK_TARGET: &str = "--target=x86_64-linux-gnu";

/// An open shared object (closed on drop) and its entry point.
pub struct Library {
    handle: *mut c_void,
    /// Address of the entry symbol.
    pub entry: u64,
}

impl Drop for Library {
    fn drop(&mut self) {
        // SAFETY: our own handle; nothing points into the library after the drop.
        unsafe {
            libc::dlclose(self.handle);
        }
    }
}

/// Links `objects` into a shared object, opens it and resolves `entry`.
pub fn load(objects: &[Vec<u8>], entry: &str) -> Result<Library, JitError> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "garm-jit-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(io_at(&dir))?;
    let r = link_and_open(&dir, objects, entry);
    // The mapping outlives the file: nothing on disk is needed once dlopen has returned.
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn link_and_open(dir: &Path, objects: &[Vec<u8>], entry: &str) -> Result<Library, JitError> {
    let tc = Toolchain::find()?;
    let mut paths = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        let p = dir.join(format!("{i}.o"));
        std::fs::write(&p, o).map_err(io_at(&p))?;
        paths.push(p);
    }
    let script = dir.join("arrays.ld");
    std::fs::write(&script, ARRAYS_LD).map_err(io_at(&script))?;
    let so = dir.join("program.so");
    // The objects are -fPIE, which assumes their own symbols bind locally: -Bsymbolic makes that
    // true of the shared object too, so they link without -fPIC. -z defs: nothing may come from
    // the host process. -z norelro: the renamed arrays sit after .data, outside the RELRO run.
    let out = Command::new(&tc.clang)
        .arg(LINK_TARGET)
        .arg(format!("--ld-path={}", tc.lld.display()))
        .args(["-shared", "-nostdlib", "-Wl,-Bsymbolic", "-Wl,-z,defs"])
        .args(["-Wl,-z,norelro", "-Wl,-T"])
        .arg(&script)
        .args(&paths)
        .arg("-o")
        .arg(&so)
        .output()
        .map_err(|source| ToolchainError::Spawn {
            what: tc.clang.display().to_string(),
            source,
        })?;
    if !out.status.success() {
        return Err(ToolchainError::Failed {
            what: "clang -shared".into(),
            output: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
        .into());
    }
    let path = CString::new(so.as_os_str().as_encoded_bytes())
        .map_err(|_| JitError::Nul(so.display().to_string()))?;
    // SAFETY: a library we just linked, with no constructors for the dynamic loader to run.
    let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        return Err(JitError::Dlopen(format!("{}: {}", so.display(), dlerror())));
    }
    let mut lib = Library { handle, entry: 0 };
    let name = CString::new(entry).map_err(|_| JitError::Nul(entry.to_string()))?;
    // SAFETY: a valid handle and a NUL-terminated name.
    let sym = unsafe { libc::dlsym(lib.handle, name.as_ptr()) };
    if sym.is_null() {
        return Err(JitError::Dlopen(format!(
            "entry symbol '{entry}' not found: {}",
            dlerror()
        )));
    }
    lib.entry = sym as u64;
    Ok(lib)
}

/// The dynamic loader's last error message.
fn dlerror() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated string valid until the next dl call.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        return "unknown error".into();
    }
    // SAFETY: checked non-null above.
    unsafe { std::ffi::CStr::from_ptr(e) }
        .to_string_lossy()
        .into_owned()
}
