// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the
// variants with the ATOMIC unit.

    // ATOMIC unit: LSE (one read-modify-write of 1-8 naturally aligned bytes; CASP 2x4 or 2x8)
    // and the store-exclusives. Xs is the operand (rm), Xt the destination of the old value
    // (rc); CAS compares with Xs, stores Xt and writes the old value to Xs (rd). A step holds
    // its line's lock word, so lanes of one dispatch (threads, processes sharing memory) see
    // each atomic step whole; a lane that finds the lock taken runs the instruction again on
    // its next step.
    if unit == U_ATOMIC {
        g_used = g_used | VAR_ATOMIC;
        let size = aux & 3u;
        let aop = (aux >> A_OP_SHIFT) & 15u;
        let stxp = aop == A_STXP;
        let stx = aop == A_STX;
        // CASP and STXP: a pair of 4- or 8-byte registers, as one access of twice the size.
        let casp = aop == A_CASP || stxp;
        let nb = (1u << size) * select(1u, 2u, casp);
        let addr = a;
        if (vlo(addr) & (nb - 1u)) != 0u {
            fault(ST_MEMFAULT, addr, FAULT_ALIGN);
            return;
        }
        let xi = xlat(addr, nb, true, true);
        if xi == XLAT_RETRY { return; }
        // A naturally aligned access of at most 16 bytes lies in one 64-byte line.
        let lk = (xi >> 4u) & (LOCK_WORDS - 1u);
        if !atomicCompareExchangeWeak(&locks[lk], 0u, g_inst + 1u).exchanged { return; }
        // A store-exclusive needs the monitor on this address, size and pairing.
        let mon = g_excl_valid == 1u + size + select(0u, 8u, stxp) && g_excl_addr == vlo(addr);
        if casp {
            // Xs:Xs+1 against memory (STXP: the pair the load-exclusive read); if equal,
            // Xt:Xt+1 stored (STXP: Xt:Xt2); Xs:Xs+1 = the old pair (STXP: Ws = the status).
            // Register 31 of a pair is the zero register.
            let j = xi;
            let w0 = mld(j);
            let w1 = mld(j + 1u);
            let w2 = mld(j + 2u);
            let w3 = mld(j + 3u);
            let s1 = select(bm, g_excl_val, stxp);
            let s2 = select(select(R[(rm + 1u) & 31u], vz(), rm + 1u >= 31u), g_excl_val2, stxp);
            let t2 = select(select(R[(rt + 1u) & 31u], vz(), rt + 1u >= 31u), bm, stxp);
            let x = size == 3u;
            let lo = select(vw(w0, 0u), vw(w0, w1), x);
            let hi = select(vw(w1, 0u), vw(w2, w3), x);
            let m32 = vw(~0u, 0u);
            var eq = select(veq(lo, vand(s1, m32)) && veq(hi, vand(s2, m32)), veq(lo, s1) && veq(hi, s2), x);
            if stxp { eq = eq && mon; }
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
            if stxp {
                g_excl_valid = 0u;
                res = vw(select(1u, 0u, eq), 0u);
                wi1 = rd;
            } else {
                res = lo;
                wi1 = select(rm, R_SINK, rm >= 31u);
                r2 = hi;
                wi2 = select(rm + 1u, R_SINK, rm + 1u >= 31u);
            }
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
        if stx {
            // Stored only if memory still holds what the load-exclusive read (qemu's rule).
            write = mon && veq(old, vand(g_excl_val, m));
            nv = c;
            g_excl_valid = 0u;
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
        wi1 = select(rt, R_SINK, is_cas || stx);
        if is_cas {
            r2 = old;
            wi2 = rd;
        }
        if stx {
            r2 = vw(select(1u, 0u, write), 0u);
            wi2 = rd;
        }
        }
        atomicExchange(&locks[lk], 0u);
    }
