// Part of the CPU shader, assembled by src/gpu/shader.rs (see shaders/cpu/README.md).

// Syscalls the shader answers itself: exit, exit_group, brk, and write to fds 1 and 2 while the
// output ring has room (ST_WRITE: the copy happens at the start of the next dispatch). Anything
// else stops the guest for the host (ST_SYSCALL) with pc past the SVC.
fn syscall() -> V {
    let nr = vlo(R[8]);
    let x0 = R[0];
    var r = x0;
    g_status = ST_SYSCALL;
    if nr == SYS_EXIT || nr == SYS_EXIT_GROUP {
        g_exit_code = vlo(x0) & 255u;
        g_status = ST_EXITED;
    }
    if nr == SYS_BRK && (g_fastfd & FASTFD_HOST_BRK) == 0u {
        if vhi(x0) == 0u && vlo(x0) >= sreg(S_BRK_MIN) && vlo(x0) <= sreg(S_BRK_MAX) { g_brk = vlo(x0); }
        r = vw(g_brk, 0u);
        g_status = ST_RUNNING;
    }
    if nr == SYS_WRITE && vhi(x0) == 0u && (vlo(x0) == 1u || vlo(x0) == 2u) && ((g_fastfd >> (vlo(x0) - 1u)) & 1u) == 1u {
        let len = R[2];
        let room = (P.out_words - g_out_len) * 4u;
        // Written as `l <= room - 4` so a length near 2^32 cannot wrap past the check.
        let l = vlo(len);
        if vhi(len) == 0u && room >= 4u && l <= room - 4u && vhi(R[1]) <= 0xffffu {
            g_status = select(ST_WRITE, ST_RUNNING, vlo(len) == 0u);
            r = select(x0, vz(), vlo(len) == 0u);
        }
    }
    return r;
}

// Copies a pending write (fd x0, buffer x1, length x2) into this instance's output ring as one
// record: a header word (fd << 28 | length) and the bytes. Commits only if the copy finished;
// a buffer that is not all mapped goes to the host as an ordinary write (which fails EFAULT).
fn finish_write() {
    let fd = vlo(R[0]);
    let src = R[1];
    let len = vlo(R[2]);
    let pos = g_out_len;
    let ob = g_inst * P.out_words;
    let n = (len + 3u) / 4u;
    let sh = (vlo(src) & 3u) * 8u;
    // Source words from the aligned word at or below src; `need` of them hold the bytes.
    let a0 = vand(src, vw(~3u, ~0u));
    let need = ((vlo(src) & 3u) + len + 3u) / 4u;
    var j = xlat_walk(a0);
    var ok = j != XLAT_RETRY;
    var prev = mld(select(j, 0u, !ok));
    var k = 0u;
    loop {
        if k >= n || !ok { break; }
        let ak = vadd(a0, vw((k + 1u) * 4u, 0u));
        if (vlo(ak) & 4095u) == 0u { j = xlat_walk(ak); } else { j = j + 1u; }
        let used = k + 1u < need;
        ok = !used || j != XLAT_RETRY;
        let nx = select(0u, mld(select(j, 0u, j == XLAT_RETRY)), used);
        outbuf[ob + pos + 1u + k] = funnel(prev, nx, sh);
        prev = nx;
        k = k + 1u;
    }
    if !ok {
        g_pc = vadd(g_pc, vw(4u, 0u));
        g_status = ST_SYSCALL;
        return;
    }
    if k != n { return; }
    outbuf[ob + pos] = (fd << 28u) | len;
    g_out_len = pos + 1u + n;
    R[0] = vw(len, 0u);
    g_pc = vadd(g_pc, vw(4u, 0u));
    g_status = ST_RUNNING;
}
