//! Small AArch64 ELF files made in code: the loader's tests, the kernel's tests and the host
//! fuzzer start from them (no toolchain needed).

/// One program header: (type, flags, offset, vaddr, filesz, memsz).
pub type Ph = (u32, u32, u64, u64, u64, u64);

/// An AArch64 ELF64 with these program headers (at offset 64) and `body` copied at 0x1000..
/// (when non-empty), `len` bytes in all.
pub fn build_elf(
    ty: u16,
    entry: u64,
    phs: &[Ph],
    len: usize,
    body: &[(usize, Vec<u8>)],
) -> Vec<u8> {
    let mut f = vec![0u8; len];
    f[..4].copy_from_slice(b"\x7fELF");
    f[4] = 2; // ELFCLASS64
    f[5] = 1; // little endian
    f[6] = 1; // EV_CURRENT
    let put = |f: &mut Vec<u8>, at: usize, v: &[u8]| f[at..at + v.len()].copy_from_slice(v);
    put(&mut f, 16, &ty.to_le_bytes());
    put(&mut f, 18, &183u16.to_le_bytes()); // EM_AARCH64
    put(&mut f, 20, &1u32.to_le_bytes());
    put(&mut f, 24, &entry.to_le_bytes());
    put(&mut f, 32, &64u64.to_le_bytes()); // e_phoff
    put(&mut f, 52, &64u16.to_le_bytes()); // e_ehsize
    put(&mut f, 54, &56u16.to_le_bytes()); // e_phentsize
    put(&mut f, 56, &(phs.len() as u16).to_le_bytes());
    for (i, &(t, fl, off, va, fsz, msz)) in phs.iter().enumerate() {
        let p = 64 + i * 56;
        put(&mut f, p, &t.to_le_bytes());
        put(&mut f, p + 4, &fl.to_le_bytes());
        put(&mut f, p + 8, &off.to_le_bytes());
        put(&mut f, p + 16, &va.to_le_bytes());
        put(&mut f, p + 24, &va.to_le_bytes());
        put(&mut f, p + 32, &fsz.to_le_bytes());
        put(&mut f, p + 40, &msz.to_le_bytes());
        put(&mut f, p + 48, &4096u64.to_le_bytes());
    }
    for (at, b) in body {
        put(&mut f, *at, b);
    }
    f
}
