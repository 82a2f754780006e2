// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

    // Logic unit (ALU AND/ORR/EOR).
    if unit == U_ALU && opn != OP_ADD {
        var l = vand(a, b);
        if opn == OP_ORR { l = vor(a, b); }
        if opn == OP_EOR { l = vxor(a, b); }
        res = l;
        flags = nz_flags(l, w);
    }
    // CSEL: Rn if the condition holds, else the adder's Rm (+1, inverted, negated).
    if unit == U_CSEL && holds { res = a; }
    if unit == U_CCMP { flags = select(aux & 15u, add_flags, holds); }

