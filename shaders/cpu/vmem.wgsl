// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the
// variants with the VMEM unit.

    // VMEM unit: 1-16 bytes per step between memory (a five-word window) and a V register;
    // pairs and LD1/ST1 of several registers take a step per register, at consecutive addresses.
    if unit == U_VMEM {
        g_used = g_used | VAR_VMEM;
        let vb = g_inst * VREG_STRIDE;
        let nb = 1u << (aux & VM_SIZE_MASK);
        let idx = (aux >> VM_IDX_SHIFT) & 3u;
        let store = (aux & VM_STORE) != 0u;
        let vpair = (aux & VM_PAIR) != 0u;
        let nsteps = select(((aux >> VM_NREGS_SHIFT) & 3u) + 1u, 2u, vpair);
        let s = g_ustep;
        let vt0 = (d.y >> 18u) & 31u;
        let vt2 = (d.y >> 24u) & 31u;
        let reg = select((vt0 + s) & 31u, select(vt0, vt2, s == 1u), vpair);
        let addr = vadd(select(sum, a, idx == M_IDX_POST), vw(s * nb, 0u));
        let mode = (aux >> VM_MODE_SHIFT) & 3u;
        let lb = ((aux >> VM_LANE_SHIFT) & 15u) * nb;
        let al = vlo(addr);
        let i = xlat(addr, nb, true, store);
        if i == XLAT_RETRY { return; }
        let sh = (al & 3u) * 8u;
        let old = vreg[vb + reg];
        let bmk = bytemask(nb);
        if !store {
            var v = load_window(i, sh) & bmk;
            if mode == VM_LANE { v = (old & ~shl_bytes(bmk, lb)) | shl_bytes(v, lb); }
            if mode == VM_REPL {
                let x = v.x * select(select(1u, 0x10001u, nb == 2u), 0x01010101u, nb == 1u);
                let y = select(x, v.y, nb == 8u);
                v = vec4<u32>(x, y, select(0u, x, (aux & VM_Q) != 0u), select(0u, y, (aux & VM_Q) != 0u));
            }
            vreg[vb + reg] = v;
        } else {
            let dv = select(old, shr_bytes(old, lb), mode == VM_LANE) & bmk;
            store_window(i, sh, dv, bmk);
        }
        wi1 = R_SINK;
        if s + 1u < nsteps {
            ustep_next = s + 1u;
            next = pc;
        } else if idx != 0u {
            r2 = sum;
            wi2 = rd;
        }
    }
