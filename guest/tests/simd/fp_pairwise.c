/* fp_pairwise.c: FP pairwise (FADDP, FMAXP, FMINNMP, vector and scalar) and FCVTN{2}/FCVTL2 through
 * <arm_neon.h>; garm must print what qemu prints (tests/simd.rs). */
#include <arm_neon.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static void p64(const char *n, float64x2_t v) { uint64_t b[2]; memcpy(b, &v, 16); printf("%s %016llx %016llx\n", n, (unsigned long long)b[0], (unsigned long long)b[1]); }
static void p32(const char *n, float32x4_t v) { uint64_t b[2]; memcpy(b, &v, 16); printf("%s %016llx %016llx\n", n, (unsigned long long)b[0], (unsigned long long)b[1]); }
int main(void) {
  float64x2_t a = {1.5, -2.25}, b = {1e300, 3.0};
  float32x4_t fa = {1.5f, 2.5f, -0.0f, 7.0f}, fb = {1e30f, 1e30f, -3.0f, 0.125f};
  p64("faddp2d", vpaddq_f64(a, b));
  p32("faddp4s", vpaddq_f32(fa, fb));
  float32x2_t lo = vget_low_f32(fa), hi = vget_high_f32(fb);
  float32x2_t s2 = vpadd_f32(lo, hi); p32("faddp2s", vcombine_f32(s2, s2));
  p64("fmaxp", vpmaxq_f64(a, b)); p32("fminnmp", vpminnmq_f32(fa, fb));
  printf("faddp d %a\n", vpaddd_f64(a)); printf("faddp s %a\n", (double)vpadds_f32(lo));
  printf("fmaxnmp d %a\n", vpmaxnmqd_f64(b));
  float32x2_t n = vcvt_f32_f64(b); p32("fcvtn", vcombine_f32(n, n));
  float32x4_t n2 = vcvt_high_f32_f64(vget_low_f32(fa), a); p32("fcvtn2", n2);
  p64("fcvtl2", vcvt_high_f64_f32(fb));
  return 0;
}
