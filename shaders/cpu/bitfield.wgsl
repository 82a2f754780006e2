// A fragment of `fn step()`, assembled in order by src/gpu/shader.rs: it reads and writes the
// step's locals (operands, `res`, `flags`, `next`, ...), declared in fetch.wgsl.

    // Bitfield unit: UBFM/SBFM/BFM as (field >> lsb) << pos, EXTR, MOVK.
    if unit == U_BFM {
        let lsb = aux & 63u;
        let pos = (aux >> BF_POS_SHIFT) & 63u;
        let width = (aux >> BF_WIDTH_SHIFT) & 127u;
        let mode = (aux >> BF_MODE_SHIFT) & 3u;
        let ones = vones(width);
        var v = vshl(vand(vshr(bsrc_val, lsb), ones), pos);
        if mode == BF_INSERT { v = vor(vand(c, vnot(vshl(ones, pos))), v); }
        let topb = pos + width;
        if mode == BF_SIGN && topb < 64u && (vlo(vshr(v, topb - 1u)) & 1u) == 1u {
            v = vor(v, vnot(vones(topb)));
        }
        if mode == BF_EXTR {
            // (Rn:Rm) >> lsb; in W form the two words are packed into one 64-bit value.
            let hi = select(a, vshl(a, 32u), w);
            let lo = select(bm, vand(bm, vw(0xffffffffu, 0u)), w);
            let wide_v = select(vor(vshr(lo, lsb), vshl(hi, 64u - lsb)), lo, lsb == 0u);
            v = select(wide_v, vshr(vor(hi, lo), lsb), w);
        }
        res = v;
    }

