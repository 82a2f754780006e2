// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

    // Memory unit: one access of 1-8 bytes per step through a three-word window; pairs take two
    // steps (ustep), the second at the saved address + size.
    if is_mem {
        let size = aux & 3u;
        let nb = 1u << size;
        let idx = (aux >> M_IDX_SHIFT) & 3u;
        let store = (aux & M_STORE) != 0u;
        let excl = (aux & M_EXCL) != 0u;
        var addr = select(sum, a, idx == M_IDX_POST);
        var wb = sum;
        if second {
            addr = vadd(g_tmp_addr, vw(nb, 0u));
            wb = g_tmp_wb;
        }
        let prfm = (aux & M_PRFM) != 0u;
        let al = vlo(addr);
        let i = xlat(addr, nb, !prfm, store);
        if i == XLAT_RETRY { return; }
        let sh = (al & 3u) * 8u;
        let i1 = wix(i, 1u);
        let i2 = wix(i, 2u);
        let m0w = mld(i);
        let m1w = mld(i1);
        let m2w = mld(i2);
        let loaded = vand(vw(funnel(m0w, m1w, sh), funnel(m1w, m2w, sh)), vones(nb * 8u));
        let sb = 64u - nb * 8u;
        var v = loaded;
        if (aux & M_SX64) != 0u { v = vsar(vshl(loaded, sb), sb); }
        if (aux & M_SX32) != 0u { v = vw(vlo(vsar(vshl(loaded, sb), sb)), 0u); }
        res = v;
        wi1 = rt;
        // A load-exclusive sets the monitor (a pair on its first step) and records what it read,
        // for the store-exclusive (the ATOMIC unit) to compare. The monitor remembers the
        // access size and pairing too: a store-exclusive of another size is CONSTRAINED
        // UNPREDICTABLE, and failing it is what qemu does.
        let excl_tag = 1u + size + select(0u, 8u, pair);
        if excl && !second { g_excl_valid = excl_tag; g_excl_addr = al; g_excl_val = loaded; }
        if excl && second { g_excl_val2 = loaded; }
        if store {
            wi1 = R_SINK;
            // Spread value and byte mask over the window as a 96-bit shift left by sh.
            let m = vones(nb * 8u);
            let dv = vand(c, m);
            let inv = (32u - sh) & 31u;
            let z = sh == 0u;
            mst(i, (m0w & ~(vlo(m) << sh)) | (vlo(dv) << sh));
            let m1 = select((vhi(m) << sh) | (vlo(m) >> inv), vhi(m), z);
            let m2 = select(vhi(m) >> inv, 0u, z);
            if m1 != 0u { mst(i1, (m1w & ~m1) | select((vhi(dv) << sh) | (vlo(dv) >> inv), vhi(dv), z)); }
            if m2 != 0u { mst(i2, (m2w & ~m2) | select(vhi(dv) >> inv, 0u, z)); }
        }
        if !excl && idx != 0u { r2 = wb; }
        wi2 = rd;
        if pair && !second {
            g_tmp_addr = addr;
            g_tmp_wb = wb;
            ustep_next = 1u;
            next = pc;
            wi2 = R_SINK;
        }
    }

