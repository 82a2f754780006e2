// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the
// variants with the VSTRUCT unit.

    // VSTRUCT unit: LD2-LD4/ST2-ST4 (multiple structures), element j of register t+r at
    // (j * n + r) * es. STn: step k interleaves chunk k (8 or 16 bytes) from the registers and
    // stores it. LDn: steps 0..n-1 load the chunks into the scratch registers VC0..VC3, steps
    // n..2n-1 de-interleave register r from them.
    if unit == U_VSTRUCT {
        g_used = g_used | VAR_VSTRUCT;
        let vb = g_inst * VREG_STRIDE;
        let log = aux & 3u;
        let es = 1u << log;
        let n = ((aux >> VS_N_SHIFT) & 3u) + 1u;
        let store = (aux & VS_STORE) != 0u;
        let db = select(8u, 16u, (aux & VS_Q) != 0u);
        let post = (aux & VS_POST) != 0u;
        let s = g_ustep;
        let vt0 = (d.y >> 18u) & 31u;
        let loading = !store && s < n;
        let chunk = select(0u, s, store || loading);
        let addr = vadd(select(sum, a, post), vw(chunk * db, 0u));
        let touch = store || loading;
        // The gather's source: the structure registers (stores) or the loaded chunks (loads).
        let src0 = select(vreg[vb + VC0], vreg[vb + vt0], store);
        let src1 = select(vreg[vb + VC0 + 1u], vreg[vb + ((vt0 + 1u) & 31u)], store);
        let src2 = select(vreg[vb + VC0 + 2u], vreg[vb + ((vt0 + 2u) & 31u)], store);
        let src3 = select(vreg[vb + VC0 + 3u], vreg[vb + ((vt0 + 3u) & 31u)], store);
        VS[0] = src0.x; VS[1] = src0.y; VS[2] = src0.z; VS[3] = src0.w;
        VS[4] = src1.x; VS[5] = src1.y; VS[6] = src1.z; VS[7] = src1.w;
        VS[8] = src2.x; VS[9] = src2.y; VS[10] = src2.z; VS[11] = src2.w;
        VS[12] = src3.x; VS[13] = src3.y; VS[14] = src3.z; VS[15] = src3.w;
        let r = select(0u, s - n, !store && !loading);
        var gv = vec4<u32>(vs_word(0u, store, chunk, r, n, log, db), vs_word(1u, store, chunk, r, n, log, db),
                       vs_word(2u, store, chunk, r, n, log, db), vs_word(3u, store, chunk, r, n, log, db));
        if db == 8u { gv.z = 0u; gv.w = 0u; }
        // Steps that do not touch memory get word 0 from xlat, read and not used.
        let al = vlo(addr);
        let i = xlat(addr, db, touch, store);
        if i == XLAT_RETRY { return; }
        let sh = (al & 3u) * 8u;
        let bmk = bytemask(db);
        if loading {
            let v = load_window(i, sh) & bmk;
            vreg[vb + VC0 + (s & 3u)] = v;
        } else if !store {
            vreg[vb + ((vt0 + r) & 31u)] = gv;
        } else {
            let dv = gv & bmk;
            store_window(i, sh, dv, bmk);
        }
        wi1 = R_SINK;
        let nsteps = select(2u * n, n, store);
        if s + 1u < nsteps {
            ustep_next = s + 1u;
            next = pc;
        } else if post {
            r2 = sum;
            wi2 = rd;
        }
    }
