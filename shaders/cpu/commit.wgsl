// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

    // An FP/SIMD instruction in a variant without its unit: the host switches variants and it
    // runs from the start (no unit has touched anything).
    let missing = select(0u, VAR_VEC, !HAS_VEC && unit == U_VEC)
        | select(0u, VAR_VMEM, !HAS_VMEM && unit == U_VMEM) | select(0u, VAR_FP, !HAS_FP && unit == U_FP)
        | select(0u, VAR_VSTRUCT, !HAS_VSTRUCT && unit == U_VSTRUCT)
        | select(0u, VAR_ATOMIC, !HAS_ATOMIC && unit == U_ATOMIC);
    if missing != 0u {
        fault(ST_VARIANT, pc, missing);
        return;
    }
    if unit == U_TRAP {
        // Unallocated, HLT, UDF: the raw word rides in the immediate.
        fault(ST_ILLEGAL, pc, d.z);
        return;
    }
    if short_loop {
        // The loop limiter cut a bit-serial loop short: run the instruction again next dispatch.
        g_status = ST_LIMIT_RETRY;
        return;
    }

    if w && unit != U_BR { res = vw(vlo(res), 0u); }
    if (c0 & F_S) != 0u { g_nzcv = flags; }
    R[wi1] = res;
    R[wi2] = r2;
    g_ustep = ustep_next;
    g_pc = next;
    g_executed = g_executed + 1u;
    g_xf = 0u;
