// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the FP
// variant.

    // FP unit: scalar binary32/binary64 (shaders/cpu/fp_fns.wgsl), operands in the low bits of
    // Vn and Vm (Xn for conversions from integers); results to Vd (upper bits zeroed), a
    // general register (conversions to integers) or NZCV (compares).
    if unit == U_FP {
        g_fpx = 0u;
        let vb = g_inst * VREG_STRIDE;
        let dbl = (aux & FP_DBL) != 0u;
        let signed = (aux & FP_SIGNED) != 0u;
        let i64 = (aux & FP_I64) != 0u;
        let vn = vreg[vb + (rn & 31u)];
        let vm = vreg[vb + (rm & 31u)];
        let xa = vw(vn.x, vn.y);
        let xb = select(vw(vm.x, vm.y), vz(), (aux & FP_ZERO) != 0u);
        var r = vz();
        var to_v = true;
        if opn == FP_ADD || opn == FP_SUB { r = fp_add(xa, xb, dbl, opn == FP_SUB); }
        if opn == FP_MUL {
            r = fp_mul(xa, xb, dbl);
            if (aux & FP_NEG) != 0u { r = vxor(r, fp_sign(1u, dbl)); }
        }
        if opn == FP_CMP || opn == FP_CCMP {
            let live = opn == FP_CMP || holds;
            let f = fp_compare(xa, xb, dbl, (aux & FP_E) != 0u);
            flags = select(vlo(imm) & 15u, f, live);
            if !live { g_fpx = 0u; }
            to_v = false;
        }
        if opn == FP_CSEL { r = select(xb, xa, holds); }
        let fbits = (aux >> FP_FBITS_SHIFT) & 127u;
        if opn == FP_CVTF { r = fp_from_int(a, signed, i64, dbl, fbits); }
        if opn == FP_CVTI {
            res = fp_to_int(xa, dbl, (aux >> FP_RM_SHIFT) & 7u, signed, i64, fbits);
            to_v = false;
        }
        if opn == FP_CVT { r = fp_convert(xa, dbl); }
        if opn == FP_MINMAX {
            r = fp_minmax(xa, xb, dbl, (aux & FP_MAX) != 0u, (aux & FP_NM) != 0u);
        }
        if opn == FP_RINT {
            let rmf = (aux >> FP_RM_SHIFT) & 7u;
            let rmode = select(rmf, (g_fpcr >> 22u) & 3u, rmf == 7u);
            r = fp_rint(xa, dbl, rmode, (aux & FP_EXACT) != 0u);
        }
        if opn == FP_DIV || opn == FP_SQRT {
            // Multi-step: the bits into VT, then the rounding step.
            let s = g_ustep;
            let ua = fp_unpack(xa, dbl);
            // FSQRT has no second operand: unpacking one would raise IDC for a stale register.
            var ub = ua;
            if opn == FP_DIV { ub = fp_unpack(xb, dbl); }
            let tv = vreg[vb + VT];
            let st = array<V, 2>(vw(tv.x, tv.y), vw(tv.z, tv.w));
            let nst = select(fp_sqrt_steps(), fp_div_steps(), opn == FP_DIV);
            if s < nst {
                var nx = fp_sqrt_bits(s, fp_sqrt_m(ua), st);
                if opn == FP_DIV { nx = fp_div_bits(s, vshr(ua.m, 10u), vshr(ub.m, 10u), st); }
                vreg[vb + VT] = vec4<u32>(vlo(nx[0]), vhi(nx[0]), vlo(nx[1]), vhi(nx[1]));
                ustep_next = s + 1u;
                next = pc;
                to_v = false;
                g_fpx = 0u;
            } else if opn == FP_DIV {
                r = fp_div_final(xa, ua, xb, ub, st, dbl);
            } else {
                r = fp_sqrt_final(xa, ua, st, dbl);
            }
        }
        if opn == FP_FMA {
            let va = vreg[vb + ((d.y >> 18u) & 31u)];
            r = fp_fma(xa, xb, vw(va.x, va.y), dbl, (aux & FP_NEG) != 0u, (aux & FP_NEG_C) != 0u);
        }
        wi1 = select(R_SINK, rd, opn == FP_CVTI);
        if to_v {
            let wide = dbl != (opn == FP_CVT);
            vreg[vb + (rd & 31u)] = vec4<u32>(vlo(r), select(0u, vhi(r), wide), 0u, 0u);
        }
        g_fpsr = g_fpsr | g_fpx;
    }
