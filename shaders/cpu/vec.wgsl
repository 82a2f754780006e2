// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the
// variants with the VEC unit.

    // VEC unit: a permute stage P and a lane stage L, sequenced by the recipe (src/isa/form.rs,
    // mod vec). Multi-step recipes keep their intermediate in the scratch register VT.
    if unit == U_VEC {
        g_used = g_used | VAR_VEC;
        let vb = g_inst * VREG_STRIDE;
        let esz = (c0 >> VF_ESZ_SHIFT) & 3u;
        let q = (c0 & VF_Q) != 0u;
        let lop = ((c0 >> VF_LOP_SHIFT) & 31u) | select(0u, 32u, (c0 & VF_LOP_HI) != 0u);
        let bsel = (c0 >> VF_BSEL_SHIFT) & 3u;
        let keep = (c0 & VF_KEEP) != 0u;
        let s = g_ustep;
        let db = select(8u, 16u, q);
        var pcf = PCfg((c0 >> VF_PKIND_SHIFT) & 15u, (c0 >> VF_PESZ_SHIFT) & 3u, db,
                       select(0u, 1u, (c0 & VF_PART) != 0u), (d.y >> 18u) & 63u, (d.y >> 24u) & 63u,
                       (c0 & VF_SIGNED) != 0u);
        // A widening reduction (UADDLV, SADDLV) adds pairs into wide elements in its first step,
        // then folds like ADDV.
        let wred = opn == VR_REDUCE && lop == VL_ADDLP;
        let first = s == 0u;
        if opn == VR_PAIR { pcf.part = s; }
        if opn == VR_REDUCE { pcf.k1 = db >> select(s + 1u, s, wred); }
        let from_t = (opn == VR_LP && s == 1u) || (opn == VR_REDUCE && s != 0u);
        let va = vreg[vb + select(rn & 31u, VT, from_t)];
        let vm = vreg[vb + (rm & 31u)];
        let vd = vreg[vb + (rd & 31u)];
        let vt = vreg[vb + VT];
        let tbl = pcf.kind == VP_TBL;
        let src_m = opn == VR_WADD || (opn == VR_LONG && !first);
        let s0 = select(select(va, vm, src_m), vec4<u32>(vlo(a), vhi(a), vlo(a), vhi(a)), (c0 & VF_GPR) != 0u);
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
        var lop2 = lop;
        if opn == VR_PL || opn == VR_WADD { la = select(pv, va, opn == VR_WADD); }
        // A scalar saturating narrowing sees element 0 alone: the rest cannot set FPSR.QC.
        if opn == VR_LP && first && (c0 & VF_SCALAR) != 0u {
            let eb = 1u << esz;
            la = la & vec4<u32>(wmask(eb), select(0u, ~0u, eb == 8u), 0u, 0u);
        }
        if opn == VR_WADD { lb = pv; }
        if (opn == VR_PAIR || opn == VR_LONG) && !first { la = vt; lb = pv; }
        if opn == VR_REDUCE && !(wred && first) { lb = pv; }
        if wred && !first { lop2 = VL_ADD; }
        if opn == VR_ACC && !first {
            // The accumulate step: Vd + T, or Vd - T (PART).
            la = vd;
            lb = vt;
            lop2 = select(VL_ADD, VL_SUB, pcf.part == 1u);
        }
        g_vsat = false;
        let lv = lanes(la, lb, vd, esz, lop2);
        let last_reduce = opn == VR_REDUCE && !(wred && first) && (pcf.k1 == (1u << esz));
        let to_t = ((opn == VR_LP || opn == VR_PAIR || opn == VR_ACC || opn == VR_LONG) && first)
            || (opn == VR_REDUCE && !last_reduce);
        let use_p = opn == VR_PERM || opn == VR_TOGPR || (opn == VR_LP && !first)
            || ((opn == VR_PAIR || opn == VR_LONG) && first);
        var out = select(lv, pv, use_p);
        // Saturation counts only where the lane stage's result is the step's (not in LP's
        // narrowing step, which re-runs it over the saturated values).
        if g_vsat && !use_p { g_fpsr = g_fpsr | FPSR_QC; }
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
