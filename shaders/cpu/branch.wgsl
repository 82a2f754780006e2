// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

    // Branch unit: B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR, BLR, RET.
    if unit == U_BR {
        let mask = select(select(vnot(vz()), vw(0xffffffffu, 0u), w), vshl(vw(1u, 0u), (c0 >> F_SHAMT_SHIFT) & 63u), opn >= OP_BTZ);
        let zero = veq(vand(a, mask), vz());
        var taken = opn <= OP_BL || (opn == OP_BCOND && holds);
        if opn == OP_BZERO || opn == OP_BTZ { taken = zero; }
        if opn == OP_BNONZERO || opn == OP_BTNZ { taken = !zero; }
        res = next;
        if taken { next = vw(vlo(imm), 0u); }
        if opn == OP_BREG || opn == OP_BLREG { next = a; }
    }

