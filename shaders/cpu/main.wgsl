// Part of the CPU shader, assembled by src/gpu/shader.rs (see shaders/cpu/README.md).

@compute @workgroup_size(WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= P.n_instances { return; }
    let inst = lane_instance(gid.x);
    if inst == LANE_NONE { return; }
    enter(inst);
    if g_status == ST_LIMIT_RETRY { g_status = ST_RUNNING; }
    if g_status != ST_RUNNING && g_status != ST_WRITE { return; }
    // Threads of one address space run one per dispatch (their atomics and exclusives are then
    // single-lane); a thread coming back to its turn has lost its exclusive monitor, as a
    // context switch clears it (so LDXR/STXR never succeed across another thread's run, even
    // where the value compare alone would: ABA).
    let turn = sreg(S_TURN);
    let turns = (turn & 0xffffu) > 1u;
    if turns {
        let tick = sreg(S_TICK);
        sset(S_TICK, tick + 1u);
        if tick % (turn & 0xffffu) != (turn >> 16u) { return; }
    }
    // Unrolled: once lavapipe's loop limiter is spent, every later loop would exit at once.
{{LOAD_REGS}}
    g_pc = sreg64(S_PC);
    g_nzcv = sreg(S_NZCV);
    g_ustep = sreg(S_USTEP);
    g_tpidr = sreg64(S_TPIDR);
    g_fpcr = sreg(S_FPCR);
    g_fpsr = sreg(S_FPSR);
    g_tmp_addr = sreg64(S_TMP_ADDR);
    g_tmp_wb = sreg64(S_TMP_WB);
    g_excl_valid = sreg(S_EXCL_VALID);
    g_excl_addr = sreg(S_EXCL_ADDR);
    g_excl_val = sreg64(S_EXCL_VAL);
    g_excl_val2 = sreg64(S_EXCL_VAL + 2u);
    if turns { g_excl_valid = 0u; }
    g_brk = sreg(S_BRK);
    g_out_len = sreg(S_OUT_LEN);
    g_code_base = sreg64(S_CODE_BASE);
    load_xlat();
    g_fastfd = sreg(S_FASTFD);
    g_count0 = sreg64(S_COUNT);
    g_executed = 0u;
    g_used = 0u;
    if g_status == ST_WRITE { finish_write(); }

    let limit = sreg64(S_LIMIT);
    var budget = P.iters;
    if vult(vsub(limit, g_count0), vw(budget, 0u)) { budget = vlo(vsub(limit, g_count0)); }
    // Threads taking turns stay in the interpreter (the tier's dispatch skips them): as if
    // every step were the dispatch's first, they never yield.
    g_fresh = true;
    g_yield = false;
    g_pin = sreg(S_PROBE + 3u) != 0u;
    g_pent = 0u;
    g_pins = 0u;
    g_plast = 0u;
    // The profile's pc sample is taken at a pseudo-random step of the dispatch, if the lane
    // gets that far: sampling in proportion to the time spent interpreting (a dispatch that
    // ends early at a syscall is less likely to take one).
    let ns = sreg(S_SAMPLE_N);
    let at = (ns * 2654435761u + inst * 40503u) % P.iters;
    var spc = g_pc;
    var sampled = false;
    for (var i = 0u; i < budget; i = i + 1u) {
        if g_status != ST_RUNNING || g_yield { break; }
        if i == at { spc = g_pc; sampled = true; }
        step();
        g_fresh = turns;
    }
    let total = vadd(g_count0, vw(g_executed, 0u));
    if g_status == ST_RUNNING && !vult(total, limit) { g_status = ST_LIMIT; }
    // A lane that stops at a translated region's entry before the sampled step still takes
    // its sample, at the pc it started from: each such stop costs a dispatch pair however few
    // instructions it ran (sha256's main, interpreted between calls to its translated compress,
    // ran ~60 instructions a dispatch and was never sampled, so never translated).
    if sampled || g_yield { take_sample(ns, spc); }

    // Unrolled, like the load: the main loop may have spent the loop limiter's budget.
{{STORE_REGS}}
    sset64(S_PC, g_pc);
    sset(S_NZCV, g_nzcv);
    sset(S_USTEP, g_ustep);
    sset(S_STATUS, g_status);
    sset64(S_COUNT, total);
    sset64(S_TPIDR, g_tpidr);
    sset(S_FPCR, g_fpcr);
    sset(S_FPSR, g_fpsr);
    sset64(S_TMP_ADDR, g_tmp_addr);
    sset64(S_TMP_WB, g_tmp_wb);
    sset(S_EXCL_VALID, g_excl_valid);
    sset(S_EXCL_ADDR, g_excl_addr);
    sset64(S_EXCL_VAL, g_excl_val);
    sset64(S_EXCL_VAL + 2u, g_excl_val2);
    sset(S_BRK, g_brk);
    sset(S_OUT_LEN, g_out_len);
    sset(S_EXIT_CODE, g_exit_code);
    store_xlat();
    if g_used != 0u { sset(S_USED, sreg(S_USED) | g_used); }
    if g_pins != 0u {
        sset(S_PROBE, sreg(S_PROBE) + g_pent);
        sset(S_PROBE + 1u, sreg(S_PROBE + 1u) + g_pins);
        if g_pent != 0u { sset(S_PROBE + 2u, (g_plast >> 2u) + 1u); }
    }
    sset(S_PROBE + 3u, select(0u, 1u, g_pin));
    if g_status == ST_MEMFAULT || g_status == ST_FETCHFAULT || g_status == ST_ILLEGAL || g_status == ST_BRK
        || g_status == ST_CODEMOD || g_status == ST_DCZVA || g_status == ST_VARIANT {
        sset64(S_FAULT_ADDR, g_fault_addr);
        sset(S_FAULT_KIND, g_fault_kind);
    }
}

