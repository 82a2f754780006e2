// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

    let pc = g_pc;
    // The code map covers map_pages pages from the code base (decoded code is found by pc).
    let pcr = vsub(pc, g_code_base);
    let pcl = vlo(pcr);
    if vhi(pcr) != 0u || (pcl & 3u) != 0u || (pcl >> 12u) >= P.map_pages {
        fault(ST_FETCHFAULT, pc, FAULT_EXEC);
        return;
    }
    let slot = codemap[g_inst * P.map_pages + (pcl >> 12u)];
    if slot == NO_CODE {
        g_status = ST_NEEDCODE;
        return;
    }
    let d = dec[slot * 1024u + ((pcl & 4095u) >> 2u)];
    let c0 = d.x;
    let unit = c0 & 15u;
    // Only where the tier's dispatch will take the lane (no micro-step under way, no turns).
    if (d.y & F_TIER) != 0u && !g_fresh && g_ustep == 0u {
        g_yield = true;
        return;
    }
    // Regions the tier weighs before compiling (F_PROBE on each of their instructions): a step
    // into one from code outside them is an entry it would cost, a dispatch pair each.
    let probed = (d.y & F_PROBE) != 0u;
    let enters = probed && !g_pin;
    g_pent = g_pent + select(0u, 1u, enters);
    g_plast = select(g_plast, pcl, enters);
    g_pins = g_pins + select(0u, 1u, probed);
    g_pin = probed;
    let opn = (c0 >> F_OP_SHIFT) & 15u;
    let w = (c0 & F_W) != 0u;
    let cond = (c0 >> F_COND_SHIFT) & 15u;
    let wide = unit == U_ALU || unit == U_CSEL || (HAS_VEC && unit == U_VEC);
    let imm = select(sext32(d.z), vw(d.z, d.w), wide);
    let aux = select(d.w, 0u, wide);
    let rd = d.y & 63u;
    let rn = (d.y >> 6u) & 63u;
    let rm = (d.y >> 12u) & 63u;
    let is_mem = unit == U_MEM;
    let pair = is_mem && (aux & M_PAIR) != 0u;
    let second = pair && g_ustep == 1u;
    let rt = select((d.y >> 18u) & 63u, (d.y >> 24u) & 63u, second);

    let a = R[rn];
    let bm = R[rm];
    let c = R[rt];
    let holds = cond_holds(cond, g_nzcv);

    // Operand B: source, extension, shift, inversion.
    let bs = (c0 >> F_BSRC_SHIFT) & 3u;
    var b = select(select(bm, imm, bs == BSRC_IMM), c, bs == BSRC_RC);
    let amt = select((c0 >> F_SHAMT_SHIFT) & 63u, vlo(bm) & select(63u, 31u, w), (c0 & F_SHVAR) != 0u);
    b = shift(extend(b, (c0 >> F_EXT_SHIFT) & 7u), (c0 >> F_SHT_SHIFT) & 3u, amt);
    let bsrc_val = b;
    if (c0 & F_INVB) != 0u { b = vnot(b); }

    // The adder (ALU add/sub, CSEL's alternative, CCMP, address generation). In W form both
    // operands move to the high word so carry and overflow come out of bit 63.
    let cinm = (c0 >> F_CIN_SHIFT) & 3u;
    let cin = select(select(0u, 1u, cinm == CIN_ONE), (g_nzcv >> 1u) & 1u, cinm == CIN_CARRY);
    let aa = select(a, vz(), unit == U_CSEL);
    let a2 = select(aa, vshl(aa, 32u), w);
    let b2 = select(b, vshl(b, 32u), w);
    let s1 = vadd(a2, b2);
    let s2 = vadd(s1, select(vw(cin, 0u), vw(0u, cin), w));
    let carry = vult(s1, a2) || vult(s2, s1);
    let ovf = top_bit(vand(vxor(a2, s2), vxor(b2, s2)));
    let add_flags = (top_bit(s2) << 3u) | select(0u, 4u, veq(s2, vz())) | select(0u, 2u, carry) | ovf;
    let sum = select(s2, vshr(s2, 32u), w);

    var res = sum;
    var flags = add_flags;
    var next = vadd(pc, vw(4u, 0u));
    var wi1 = rd;
    var wi2 = R_SINK;   // second register write (memory writeback / store status)
    var r2 = vz();
    var ustep_next = 0u;

