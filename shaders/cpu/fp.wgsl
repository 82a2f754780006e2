// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the FP
// variant.

    // FP unit: binary32/binary64 (shaders/cpu/fp_fns.wgsl). Scalar forms take their operands
    // from the low bits of Vn and Vm (Xn for conversions from integers) and write Vd (upper bits
    // zeroed), a general register (conversions to integers) or NZCV (compares). Vector forms
    // (FP_VECTOR) run one lane per step (FDIV and FSQRT: their bit steps per lane), gathering
    // the lanes in the scratch register VT2 until the last writes Vd.
    if unit == U_FP {
        g_used = g_used | VAR_FP;
        g_fpx = 0u;
        let vb = g_inst * VREG_STRIDE;
        let dbl = (aux & FP_DBL) != 0u;
        let signed = (aux & FP_SIGNED) != 0u;
        let i64 = (aux & FP_I64) != 0u;
        let vecm = (aux & FP_VECTOR) != 0u;
        let widen = (aux & FP_WIDEN) != 0u;
        let narrow = (aux & FP_NARROW) != 0u;
        let pairw = (aux & FP_PAIRW) != 0u;
        var nlanes = select(select(2u, 4u, !dbl) >> select(1u, 0u, (aux & FP_Q) != 0u), 1u, (aux & FP_ONE) != 0u);
        if widen || narrow { nlanes = 2u; }
        let across = (aux & FP_ACROSS) != 0u;
        if across { nlanes = 3u; }
        let multi = opn == FP_DIV || opn == FP_SQRT;
        let nsub = select(1u, select(fp_sqrt_steps(), fp_div_steps(), opn == FP_DIV) + 1u, multi);
        let lane = select(0u, g_ustep / nsub, vecm);
        let s = select(g_ustep, g_ustep % nsub, vecm);
        let vn = vreg[vb + (rn & 31u)];
        let vm = vreg[vb + (rm & 31u)];
        let vc = vreg[vb + select((d.y >> 18u) & 31u, rd & 31u, vecm)];
        let vd0 = vreg[vb + (rd & 31u)];
        // Lane `lane` of each operand (lane 0 for scalar forms).
        // FCVTL2 reads the upper two binary32 lanes.
        let al = select(lane, lane + select(0u, 2u, (aux & FP_Q) != 0u), widen);
        let xa_l = select(vw(vn[al & 3u], 0u), vw(vn[(2u * al) & 3u], vn[(2u * al + 1u) & 3u]), dbl);
        let ml = select(lane, (aux >> FP_ELEM_SHIFT) & 3u, (aux & FP_BYELEM) != 0u);
        var xm = select(vw(vm[ml & 3u], 0u), vw(vm[(2u * ml) & 3u], vm[(2u * ml + 1u) & 3u]), dbl);
        // Pairwise: elements 2l and 2l+1 of Vn:Vm (lanes per register: nlanes; of Vn alone for
        // the scalar form).
        var xa_p = xa_l;
        if pairw {
            let per = select(select(nlanes, 4u, across), 2u, (aux & FP_ONE) != 0u);
            let k0 = 2u * lane;
            let k1 = k0 + 1u;
            let s0 = select(vm, vn, k0 < per);
            let s1 = select(vm, vn, k1 < per);
            let e0 = select(k0 - per, k0, k0 < per);
            let e1 = select(k1 - per, k1, k1 < per);
            xa_p = select(vw(s0[e0 & 3u], 0u), vw(s0[(2u * e0) & 3u], s0[(2u * e0 + 1u) & 3u]), dbl);
            xm = select(vw(s1[e1 & 3u], 0u), vw(s1[(2u * e1) & 3u], s1[(2u * e1 + 1u) & 3u]), dbl);
        }
        if across && lane == 2u {
            // The pair of the two pairwise lanes gathered so far.
            let t = vreg[vb + VT2];
            xa_p = vw(t.x, 0u);
            xm = vw(t.y, 0u);
        }
        let xc = select(vw(vc[lane & 3u], 0u), vw(vc[(2u * lane) & 3u], vc[(2u * lane + 1u) & 3u]), dbl);
        let xb = select(xm, vz(), (aux & FP_ZERO) != 0u);
        let xa = select(xa_l, xa_p, pairw);
        var r = vz();
        var to_v = true;
        // Operations that round leave their result in pr; one fp_round below serves them all.
        var pr = pr_bits(vz());
        var use_pr = false;
        if opn == FP_ADD || opn == FP_SUB {
            pr = fp_add(xa, xb, dbl, opn == FP_SUB);
            use_pr = true;
        }
        if opn == FP_MUL {
            pr = fp_mul(xa, xb, dbl);
            use_pr = true;
        }
        if opn == FP_CMP || opn == FP_CCMP {
            let live = opn == FP_CMP || holds;
            let f = fp_compare(xa, xb, dbl, (aux & FP_E) != 0u);
            flags = select(vlo(imm) & 15u, f, live);
            if !live { g_fpx = 0u; }
            to_v = false;
        }
        if opn == FP_VCMP {
            // FCMEQ (quiet), FCMGE, FCMGT, FCMLT, FCMLE (signalling): a lane of ones or zeros.
            let cond = (aux >> FP_RM_SHIFT) & 7u;
            let f = fp_compare(xa, xb, dbl, cond != 0u);
            var t = f == 6u;
            if cond == 1u { t = f == 2u || f == 6u; }
            if cond == 2u { t = f == 2u; }
            if cond == 3u { t = f == 8u; }
            if cond == 4u { t = f == 8u || f == 6u; }
            r = select(vz(), select(vw(~0u, 0u), vw(~0u, ~0u), dbl), t);
        }
        if opn == FP_CSEL { r = select(xb, xa, holds); }
        let fbits = (aux >> FP_FBITS_SHIFT) & 127u;
        if opn == FP_CVTF {
            pr = fp_from_int(select(a, xa, vecm), signed, i64, dbl, fbits);
            use_pr = true;
        }
        if opn == FP_CVTI {
            r = fp_to_int(xa, dbl, (aux >> FP_RM_SHIFT) & 7u, signed, i64, fbits);
            res = r;
            to_v = vecm;
        }
        // FCVT with binary16 on one side (HALF): to it with NARROW, from it with WIDEN; DBL
        // names the other side.
        let half = (aux & FP_HALF) != 0u;
        if opn == FP_CVT {
            if !half {
                pr = fp_convert(xa, dbl);
            } else if widen {
                pr = fp_from_half(vlo(xa) & 0xffffu, dbl);
            } else {
                pr = fp_to_half(xa, dbl);
            }
            use_pr = true;
        }
        if opn == FP_MINMAX {
            pr = fp_minmax(xa, xb, dbl, (aux & FP_MAX) != 0u, (aux & FP_NM) != 0u);
            use_pr = true;
        }
        if opn == FP_RINT {
            let rmf = (aux >> FP_RM_SHIFT) & 7u;
            let rmode = select(rmf, (g_fpcr >> 22u) & 3u, rmf == 7u);
            pr = fp_rint(xa, dbl, rmode, (aux & FP_EXACT) != 0u);
            use_pr = true;
        }
        if multi {
            // The bits into VT, then the rounding step.
            let ua = fp_unpack(xa, dbl);
            // FSQRT has no second operand: unpacking one would raise IDC for a stale register.
            var ub = ua;
            if opn == FP_DIV { ub = fp_unpack(xb, dbl); }
            let tv = vreg[vb + VT];
            let st = array<V, 2>(vw(tv.x, tv.y), vw(tv.z, tv.w));
            if s + 1u < nsub {
                var nx = fp_sqrt_bits(s, fp_sqrt_m(ua), st);
                if opn == FP_DIV { nx = fp_div_bits(s, vshr(ua.m, 10u), vshr(ub.m, 10u), st); }
                vreg[vb + VT] = vec4<u32>(vlo(nx[0]), vhi(nx[0]), vlo(nx[1]), vhi(nx[1]));
                ustep_next = g_ustep + 1u;
                next = pc;
                to_v = false;
                g_fpx = 0u;
            } else if opn == FP_DIV {
                pr = fp_div_final(xa, ua, xb, ub, st, dbl);
                use_pr = true;
            } else {
                pr = fp_sqrt_final(xa, ua, st, dbl);
                use_pr = true;
            }
        }
        if opn == FP_FMA {
            pr = fp_fma(xa, xb, xc, dbl, (aux & FP_NEG) != 0u, (aux & FP_NEG_C) != 0u);
            use_pr = true;
        }
        let out_dbl = select(dbl != (opn == FP_CVT), dbl && widen, half);
        if use_pr {
            if pr.done {
                r = pr.bits;
            } else {
                r = fp_round(pr.s, pr.e, pr.m, out_dbl, half && narrow);
            }
        }
        // FNMUL negates the rounded product; FABD clears the difference's sign.
        if opn == FP_MUL && (aux & FP_NEG) != 0u { r = vxor(r, fp_sign(1u, dbl)); }
        if (aux & FP_ABS) != 0u { r = vand(r, vnot(fp_sign(1u, dbl))); }
        wi1 = select(R_SINK, rd, opn == FP_CVTI && !vecm);
        if to_v && !vecm {
            vreg[vb + (rd & 31u)] = vec4<u32>(vlo(r), select(0u, vhi(r), out_dbl), 0u, 0u);
        }
        if to_v && vecm {
            // Gather this lane; the last lane writes Vd (the upper half zeroed for 64-bit forms).
            // FCVTN2 keeps Vd's low half and fills the high one.
            let keep_lo = narrow && (aux & FP_Q) != 0u;
            let start = select(vec4<u32>(0u), vec4<u32>(vd0.x, vd0.y, 0u, 0u), keep_lo);
            var acc = select(vreg[vb + VT2], start, lane == 0u);
            if narrow {
                acc[(lane + select(0u, 2u, keep_lo)) & 3u] = vlo(r);
            } else if dbl || widen {
                acc[(2u * lane) & 3u] = vlo(r);
                acc[(2u * lane + 1u) & 3u] = vhi(r);
            } else {
                acc[lane & 3u] = vlo(r);
            }
            if lane + 1u < nlanes {
                vreg[vb + VT2] = acc;
                ustep_next = g_ustep + 1u;
                next = pc;
            } else {
                vreg[vb + (rd & 31u)] = select(acc, vec4<u32>(vlo(r), 0u, 0u, 0u), across);
            }
        }
        g_fpsr = g_fpsr | g_fpx;
    }
