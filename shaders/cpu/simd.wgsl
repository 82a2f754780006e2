// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the
// SIMD variant.

    // VEC unit: a permute stage P and a lane stage L, sequenced by the recipe (src/isa/form.rs,
    // mod vec). Multi-step recipes keep their intermediate in the scratch register VT.
    if unit == U_VEC {
        let vb = g_inst * VREG_STRIDE;
        let esz = (c0 >> VF_ESZ_SHIFT) & 3u;
        let q = (c0 & VF_Q) != 0u;
        let lop = (c0 >> VF_LOP_SHIFT) & 31u;
        let bsel = (c0 >> VF_BSEL_SHIFT) & 3u;
        let keep = (c0 & VF_KEEP) != 0u;
        let s = g_ustep;
        let db = select(8u, 16u, q);
        var pcf = PCfg((c0 >> VF_PKIND_SHIFT) & 15u, (c0 >> VF_PESZ_SHIFT) & 3u, db,
                       select(0u, 1u, (c0 & VF_PART) != 0u), (d.y >> 18u) & 63u, (d.y >> 24u) & 63u,
                       (c0 & VF_SIGNED) != 0u);
        if opn == VR_PAIR { pcf.part = s; }
        if opn == VR_REDUCE { pcf.k1 = db >> (s + 1u); }
        let from_t = (opn == VR_LP && s == 1u) || (opn == VR_REDUCE && s != 0u);
        let va = vreg[vb + select(rn & 31u, VT, from_t)];
        let vm = vreg[vb + (rm & 31u)];
        let vd = vreg[vb + (rd & 31u)];
        let vt = vreg[vb + VT];
        let tbl = pcf.kind == VP_TBL;
        let s0 = select(va, vec4<u32>(vlo(a), vhi(a), vlo(a), vhi(a)), (c0 & VF_GPR) != 0u);
        let s1 = select(select(vm, vec4<u32>(0u), opn == VR_REDUCE), vreg[vb + ((rn + 1u) & 31u)], tbl);
        let s2 = vreg[vb + ((rn + 2u) & 31u)];
        let s3 = vreg[vb + ((rn + 3u) & 31u)];
        VS[0] = s0.x; VS[1] = s0.y; VS[2] = s0.z; VS[3] = s0.w;
        VS[4] = s1.x; VS[5] = s1.y; VS[6] = s1.z; VS[7] = s1.w;
        VS[8] = s2.x; VS[9] = s2.y; VS[10] = s2.z; VS[11] = s2.w;
        VS[12] = s3.x; VS[13] = s3.y; VS[14] = s3.z; VS[15] = s3.w;
        let pv = vec4<u32>(pword(0u, pcf, vm, vd, keep), pword(1u, pcf, vm, vd, keep),
                           pword(2u, pcf, vm, vd, keep), pword(3u, pcf, vm, vd, keep));

        var la = va;
        var lb = select(select(vm, vec4<u32>(d.z, d.w, d.z, d.w), bsel == VB_IMM), vec4<u32>(0u), bsel == VB_ZERO);
        if opn == VR_PL { la = pv; }
        if opn == VR_PAIR { la = vt; lb = pv; }
        if opn == VR_REDUCE { lb = pv; }
        let lv = lanes(la, lb, vd, esz, lop);
        let first = s == 0u;
        let last_reduce = opn == VR_REDUCE && (db >> (s + 1u)) == (1u << esz);
        let to_t = ((opn == VR_LP || opn == VR_PAIR) && first) || (opn == VR_REDUCE && !last_reduce);
        let use_p = opn == VR_PERM || opn == VR_TOGPR || (opn == VR_LP && !first) || (opn == VR_PAIR && first);
        var out = select(lv, pv, use_p);
        if !q && !to_t { out.z = 0u; out.w = 0u; }
        if (c0 & VF_SCALAR) != 0u && !to_t {
            let eb = 1u << esz;
            out = out & vec4<u32>(wmask(eb), select(0u, ~0u, eb == 8u), 0u, 0u);
        }
        wi1 = R_SINK;
        if opn == VR_TOGPR {
            let bits = 8u << pcf.pesz;
            let x = vw(pv.x, pv.y);
            res = select(vand(x, vones(bits)), vsar(vshl(x, 64u - bits), 64u - bits), pcf.signed);
            wi1 = rd;
        } else {
            vreg[vb + select(rd & 31u, VT, to_t)] = out;
        }
        if to_t {
            ustep_next = s + 1u;
            next = pc;
        }
    }

    // VMEM unit: 1-16 bytes per step between memory (a five-word window) and a V register;
    // pairs and LD1/ST1 of several registers take a step per register, at consecutive addresses.
    if unit == U_VMEM {
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
        if !mem_ok(addr, nb) {
            fault(ST_MEMFAULT, addr, select(FAULT_READ, FAULT_WRITE, store));
            return;
        }
        let mode = (aux >> VM_MODE_SHIFT) & 3u;
        let lb = ((aux >> VM_LANE_SHIFT) & 15u) * nb;
        let al = vlo(addr);
        let i = g_mbase + (al >> 2u);
        let sh = (al & 3u) * 8u;
        let m0 = mem[i];
        let m1 = mem[i + 1u];
        let m2 = mem[i + 2u];
        let m3 = mem[i + 3u];
        let m4 = mem[i + 4u];
        let old = vreg[vb + reg];
        let bmk = bytemask(nb);
        if !store {
            var v = vec4<u32>(funnel(m0, m1, sh), funnel(m1, m2, sh), funnel(m2, m3, sh), funnel(m3, m4, sh)) & bmk;
            if mode == VM_LANE { v = (old & ~shl_bytes(bmk, lb)) | shl_bytes(v, lb); }
            if mode == VM_REPL {
                let x = v.x * select(select(1u, 0x10001u, nb == 2u), 0x01010101u, nb == 1u);
                let y = select(x, v.y, nb == 8u);
                v = vec4<u32>(x, y, select(0u, x, (aux & VM_Q) != 0u), select(0u, y, (aux & VM_Q) != 0u));
            }
            vreg[vb + reg] = v;
        } else {
            let dv = select(old, shr_bytes(old, lb), mode == VM_LANE) & bmk;
            let z = sh == 0u;
            let inv = (32u - sh) & 31u;
            let k0 = bmk.x << sh;
            let k1 = (bmk.y << sh) | select(bmk.x >> inv, 0u, z);
            let k2 = (bmk.z << sh) | select(bmk.y >> inv, 0u, z);
            let k3 = (bmk.w << sh) | select(bmk.z >> inv, 0u, z);
            let k4 = select(bmk.w >> inv, 0u, z);
            mem[i] = (m0 & ~k0) | (dv.x << sh);
            if k1 != 0u { mem[i + 1u] = (m1 & ~k1) | (dv.y << sh) | select(dv.x >> inv, 0u, z); }
            if k2 != 0u { mem[i + 2u] = (m2 & ~k2) | (dv.z << sh) | select(dv.y >> inv, 0u, z); }
            if k3 != 0u { mem[i + 3u] = (m3 & ~k3) | (dv.w << sh) | select(dv.z >> inv, 0u, z); }
            if k4 != 0u { mem[i + 4u] = (m4 & ~k4) | select(dv.w >> inv, 0u, z); }
            if al < g_code_hi && al + nb > g_code_lo { fault(ST_CODEMOD, addr, FAULT_WRITE); }
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
