// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the
// variants with the ATOMIC unit.

    // ATOMIC unit (LSE): one read-modify-write of 1-8 naturally aligned bytes. Xs is the operand
    // (rm), Xt the destination of the old value (rc); CAS compares with Xs, stores Xt and writes
    // the old value to Xs (rd). The threads of an address space take turns by dispatch (S_TURN),
    // so one step is atomic.
    if unit == U_ATOMIC {
        g_used = g_used | VAR_ATOMIC;
        let size = aux & 3u;
        let aop = (aux >> A_OP_SHIFT) & 15u;
        let casp = aop == A_CASP;
        // CASP: a pair of 4- or 8-byte registers, as one access of twice the size.
        let nb = (1u << size) * select(1u, 2u, casp);
        let addr = a;
        if (vlo(addr) & (nb - 1u)) != 0u {
            fault(ST_MEMFAULT, addr, FAULT_ALIGN);
            return;
        }
        let xi = xlat(addr, nb, true, true);
        if xi == XLAT_RETRY { return; }
        if casp {
            // Xs:Xs+1 against memory; if equal, Xt:Xt+1 stored; Xs:Xs+1 = the old pair (register
            // 31 of a pair is the zero register).
            let j = xi;
            let w0 = mld(j);
            let w1 = mld(j + 1u);
            let w2 = mld(j + 2u);
            let w3 = mld(j + 3u);
            let s2 = select(R[(rm + 1u) & 31u], vz(), rm + 1u >= 31u);
            let t2 = select(R[(rt + 1u) & 31u], vz(), rt + 1u >= 31u);
            let x = size == 3u;
            let lo = select(vw(w0, 0u), vw(w0, w1), x);
            let hi = select(vw(w1, 0u), vw(w2, w3), x);
            let m32 = vw(~0u, 0u);
            let eq = select(veq(lo, vand(bm, m32)) && veq(hi, vand(s2, m32)), veq(lo, bm) && veq(hi, s2), x);
            if eq {
                mst(j, vlo(c));
                if x {
                    mst(j + 1u, vhi(c));
                    mst(j + 2u, vlo(t2));
                    mst(j + 3u, vhi(t2));
                } else {
                    mst(j + 1u, vlo(t2));
                }
            }
            res = lo;
            wi1 = select(rm, R_SINK, rm >= 31u);
            r2 = hi;
            wi2 = select(rm + 1u, R_SINK, rm + 1u >= 31u);
        } else {
        let al = vlo(addr);
        let i = xi;
        let sh = (al & 3u) * 8u;
        let m0w = mld(i);
        let m1w = mld(i + 1u);
        let m = vones(nb * 8u);
        let old = vand(vw(funnel(m0w, m1w, sh), select(m1w, 0u, nb < 8u)), m);
        let sb = 64u - nb * 8u;
        let so = vsar(vshl(old, sb), sb);
        let sv = vsar(vshl(bm, sb), sb);
        let bv = vand(bm, m);
        var nv = vadd(old, bv);
        if aop == A_CLR { nv = vand(old, vnot(bv)); }
        if aop == A_EOR { nv = vxor(old, bv); }
        if aop == A_SET { nv = vor(old, bv); }
        if aop == A_SMAX { nv = select(old, bv, vult(vxor(so, vw(0u, 0x80000000u)), vxor(sv, vw(0u, 0x80000000u)))); }
        if aop == A_SMIN { nv = select(old, bv, vult(vxor(sv, vw(0u, 0x80000000u)), vxor(so, vw(0u, 0x80000000u)))); }
        if aop == A_UMAX { nv = select(old, bv, vult(old, bv)); }
        if aop == A_UMIN { nv = select(old, bv, vult(bv, old)); }
        if aop == A_SWP { nv = bv; }
        let is_cas = aop == A_CAS;
        var write = true;
        if is_cas {
            write = veq(old, bv);
            nv = c;
        }
        if write {
            let dv = vand(nv, m);
            if nb == 8u {
                mst(i, vlo(dv));
                mst(i + 1u, vhi(dv));
            } else {
                let km = vlo(m) << sh;
                mst(i, (m0w & ~km) | (vlo(dv) << sh));
            }
        }
        res = old;
        wi1 = select(rt, R_SINK, is_cas);
        if is_cas {
            r2 = old;
            wi2 = rd;
        }
        }
    }
