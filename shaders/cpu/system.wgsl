// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

    // System unit: SVC, MRS/MSR, BRK, CLREX, DC ZVA; hints and barriers do nothing.
    if unit == U_SYS {
        if opn == OP_SVC {
            res = syscall();
            if g_status == ST_WRITE { next = pc; }
        }
        if opn == OP_MRS {
            var v = vw(g_nzcv << 28u, 0u);
            if aux == SR_TPIDR_EL0 { v = g_tpidr; }
            if aux == SR_FPCR { v = vw(g_fpcr, 0u); }
            if aux == SR_FPSR { v = vw(g_fpsr, 0u); }
            if aux == SR_CNTVCT_EL0 { v = vadd(g_count0, vw(g_executed, 0u)); }
            if aux == SR_CNTFRQ_EL0 { v = vw(CNTFRQ_EL0_VALUE, 0u); }
            if aux == SR_CTR_EL0 { v = vw(CTR_EL0_VALUE, 0u); }
            if aux == SR_DCZID_EL0 { v = vw(DCZID_EL0_VALUE, 0u); }
            if aux == SR_TPIDRRO_EL0 { v = vz(); }
            res = v;
        }
        if opn == OP_MSR {
            if aux == SR_NZCV { g_nzcv = (vlo(bm) >> 28u) & 15u; }
            if aux == SR_TPIDR_EL0 { g_tpidr = bm; }
            if aux == SR_FPCR { g_fpcr = vlo(bm) & FPCR_MASK; }
            if aux == SR_FPSR { g_fpsr = vlo(bm) & FPSR_MASK; }
        }
        if opn == OP_BRK {
            fault(ST_BRK, pc, FAULT_EXEC);
            return;
        }
        if opn == OP_CLREX { g_excl_valid = 0u; }
        // Rare, and sixteen stores would cost every step on lavapipe: the host zeroes the block.
        if opn == OP_DCZVA {
            let blk = vand(a, vnot(vw(63u, 0u)));
            fault(ST_DCZVA, blk, FAULT_WRITE);
        }
    }

