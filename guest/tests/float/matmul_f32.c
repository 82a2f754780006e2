/* Single-precision linear algebra the autovectoriser likes (real-libc builds get SIMD loops):
 * a 48x48 matrix product, dot products and axpy, a power iteration for the dominant eigenvalue,
 * and a float histogram; every result printed as bits or with %a, so rounding is compared
 * exactly. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 48
static float A[N][N], B[N][N], C[N][N];

static uint32_t bits(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }

int main(void)
{
    uint32_t s = 12345;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            s = s * 1103515245u + 12345u;
            A[i][j] = (float)((s >> 8) & 0xffff) / 65536.0f - 0.5f;
            B[j][i] = (float)((s >> 4) & 0xfff) / 4096.0f * (i == j ? 4.0f : 0.25f);
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int k = 0; k < N; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            h = (h ^ bits(C[i][j])) * 16777619u;
    printf("matmul hash %08x C[0][0] %a C[47][46] %a\n", h, C[0][0], C[47][46]);

    float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = 1.0f;
        y[i] = (float)i * 0.125f;
    }
    for (int it = 0; it < 30; it++) {
        float nx[N], norm = 0.0f;
        for (int i = 0; i < N; i++) {
            float acc = 0.0f;
            for (int k = 0; k < N; k++)
                acc += B[i][k] * x[k];
            nx[i] = acc;
            norm += acc * acc;
        }
        norm = sqrtf(norm);
        for (int i = 0; i < N; i++)
            x[i] = nx[i] / norm;
        if (it % 10 == 9)
            printf("power iteration %d: norm %a\n", it + 1, norm);
    }
    float dot = 0.0f;
    for (int i = 0; i < N; i++) {
        y[i] = 2.5f * x[i] + y[i];
        dot += x[i] * y[i];
    }
    printf("axpy/dot %a %08x\n", dot, bits(y[N - 1]));
    int hist[8] = {0};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float v = C[i][j];
            int b = (int)floorf((v + 2.0f) * 2.0f);
            hist[b < 0 ? 0 : b > 7 ? 7 : b]++;
        }
    printf("histogram");
    for (int i = 0; i < 8; i++)
        printf(" %d", hist[i]);
    printf("\n");
    return 0;
}
