// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl. Only in the
// variants with the ATOMIC unit.

    // ATOMIC unit (LSE): one read-modify-write of 1-8 naturally aligned bytes. Xs is the operand
    // (rm), Xt the destination of the old value (rc); CAS compares with Xs, stores Xt and writes
    // the old value to Xs (rd). A guest has one thread per address space, so one step is atomic.
    if unit == U_ATOMIC {
        let size = aux & 3u;
        let nb = 1u << size;
        let aop = (aux >> A_OP_SHIFT) & 15u;
        let addr = a;
        if (vlo(addr) & (nb - 1u)) != 0u {
            fault(ST_MEMFAULT, addr, FAULT_ALIGN);
            return;
        }
        if !mem_ok(addr, nb) {
            fault(ST_MEMFAULT, addr, FAULT_WRITE);
            return;
        }
        let al = vlo(addr);
        let i = g_mbase + (al >> 2u);
        let sh = (al & 3u) * 8u;
        let m0w = mem[i];
        let m1w = mem[i + 1u];
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
                mem[i] = vlo(dv);
                mem[i + 1u] = vhi(dv);
            } else {
                let km = vlo(m) << sh;
                mem[i] = (m0w & ~km) | (vlo(dv) << sh);
            }
            if al < g_code_hi && al + nb > g_code_lo { fault(ST_CODEMOD, addr, FAULT_WRITE); }
        }
        res = old;
        wi1 = select(rt, R_SINK, is_cas);
        if is_cas {
            r2 = old;
            wi2 = rd;
        }
    }
