/* fp_vec.c: vector FP (the 2S/4S/2D forms compilers vectorize) over special operands in every
 * rounding mode with the exception flags, through <arm_neon.h>; garm must print what qemu
 * prints (tests/simd.rs). */
#include <arm_neon.h>
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint64_t D[] = {
    0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0x7ff4000000000001ull, 0x0000000000000001ull, 0x800fffffffffffffull,
    0x3ff0000000000000ull, 0xbff0000000000001ull, 0x4330000000000001ull, 0x43e0000000000000ull,
    0x400921fb54442d18ull, 0xc00921fb54442d18ull, 0x3fb999999999999aull, 0x41dfffffffc00000ull};
#define ND (sizeof D / sizeof D[0])

static uint64_t h;
static void mix(uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }
static void flags(void) { mix((uint64_t)fetestexcept(FE_ALL_EXCEPT)); feclearexcept(FE_ALL_EXCEPT); }
static void mixq(uint64x2_t v) { mix(vgetq_lane_u64(v, 0)); mix(vgetq_lane_u64(v, 1)); flags(); }

int main(void)
{
    static const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    for (int mi = 0; mi < 4; mi++) {
        fesetround(modes[mi]);
        feclearexcept(FE_ALL_EXCEPT);
        uint64_t hs[4] = {0};
        for (unsigned i = 0; i < ND; i++) {
            for (unsigned j = 0; j < ND; j += 3) {
                uint64_t pa[2] = {D[i], D[(i + 5) % ND]}, pb[2] = {D[j], D[(j + 7) % ND]};
                float64x2_t a, b, c;
                memcpy(&a, pa, 16);
                memcpy(&b, pb, 16);
                c = vdupq_n_f64(0.75);
                float32x4_t fa = vreinterpretq_f32_f64(a), fb = vreinterpretq_f32_f64(b);
                h = hs[0];
                mixq(vreinterpretq_u64_f64(vaddq_f64(a, b)));
                mixq(vreinterpretq_u64_f64(vsubq_f64(a, b)));
                mixq(vreinterpretq_u64_f64(vmulq_f64(a, b)));
                mixq(vreinterpretq_u64_f64(vdivq_f64(a, b)));
                hs[0] = h;
                h = hs[1];
                mixq(vreinterpretq_u64_f32(vaddq_f32(fa, fb)));
                mixq(vreinterpretq_u64_f32(vmulq_f32(fa, fb)));
                mixq(vreinterpretq_u64_f32(vdivq_f32(fa, fb)));
                mixq(vreinterpretq_u64_f64(vfmaq_f64(c, a, b)));
                mixq(vreinterpretq_u64_f64(vfmsq_f64(c, a, b)));
                mixq(vreinterpretq_u64_f32(vfmaq_f32(fa, fa, fb)));
                hs[1] = h;
                h = hs[2];
                mixq(vreinterpretq_u64_f64(vmaxq_f64(a, b)));
                mixq(vreinterpretq_u64_f64(vminnmq_f64(a, b)));
                mixq(vreinterpretq_u64_f32(vmaxnmq_f32(fa, fb)));
                mixq(vcgeq_f64(a, b));
                mixq(vreinterpretq_u64_u32(vcgtq_f32(fa, fb)));
                mixq(vceqq_f64(a, b));
                mixq(vceqzq_f64(a));
                mixq(vreinterpretq_u64_u32(vcltzq_f32(fa)));
                hs[2] = h;
            }
            uint64_t pa[2] = {D[i], D[(i + 3) % ND]};
            float64x2_t a;
            memcpy(&a, pa, 16);
            float32x4_t fa = vreinterpretq_f32_f64(a);
            h = hs[3];
            mixq(vreinterpretq_u64_f64(vsqrtq_f64(a)));
            mixq(vreinterpretq_u64_f32(vsqrtq_f32(fa)));
            mixq(vreinterpretq_u64_f64(vabsq_f64(a)));
            mixq(vreinterpretq_u64_f32(vnegq_f32(fa)));
            mixq(vreinterpretq_u64_s64(vcvtq_s64_f64(a)));
            mixq(vreinterpretq_u64_u32(vcvtq_u32_f32(fa)));
            mixq(vreinterpretq_u64_f64(vcvtq_f64_s64(vreinterpretq_s64_f64(a))));
            mixq(vreinterpretq_u64_f32(vcvtq_f32_u32(vreinterpretq_u32_f64(a))));
            mixq(vreinterpretq_u64_f64(vrndmq_f64(a)));
            mixq(vreinterpretq_u64_f64(vrndaq_f64(a)));
            mixq(vreinterpretq_u64_f32(vrndxq_f32(fa)));
            mixq(vreinterpretq_u64_f32(vrndnq_f32(fa)));
            mixq(vreinterpretq_u64_f64(vrndiq_f64(a)));
            mixq(vreinterpretq_u64_f64(vrndpq_f64(a)));
            mixq(vreinterpretq_u64_f64(vrndq_f64(a)));
            hs[3] = h;
        }
        printf("mode %d: %016llx %016llx %016llx %016llx\n", mi, (unsigned long long)hs[0],
               (unsigned long long)hs[1], (unsigned long long)hs[2], (unsigned long long)hs[3]);
    }
    float32x2_t x = vdup_n_f32(1.5f);
    x = vmul_f32(x, vdup_n_f32(3.0f));
    printf("2s %08x\n", vget_lane_u32(vreinterpret_u32_f32(x), 1));
    return 0;
}
