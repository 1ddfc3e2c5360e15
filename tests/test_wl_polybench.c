/*
 * test_wl_polybench.c - the PolyBench/GPU 1.0 generators
 * (src/workloads/polybench/): for every kernel, a small run is pulled
 * through the wc_source ops and checked against
 *   - the number of launches and of warp LDG/STG instructions, computed by
 *     hand from the CUDA source's loop bounds, guards and launch shapes (the
 *     arithmetic is in the comments), and
 *   - a few exact addresses, strides and masks derived by hand from the
 *     index expressions and the documented array layout (first array at
 *     0x10000000, each next one at the first 4 KiB boundary after the
 *     previous one ends, in the source's cudaMalloc order).
 * Default rmw=1: an accumulator X[e] += ... is loaded and stored every
 * iteration.
 */
#include "check.h"

/* ---- pulling helpers (shared with test_wl_seedmicro.c) ---- */
#include <stdio.h>
#include <string.h>

#include "warpcache/workloads.h"

#include "wl_pull.h"
#define CHECK_COUNTS(spec, launches_, ldg_, stg_)                                                  \
    do {                                                                                           \
        wl_counts c_;                                                                              \
        CHECK(wl_pull_all(spec, &c_) == 0);                                                        \
        CHECK_EQ(c_.launches, launches_);                                                          \
        CHECK_EQ(c_.ldg, ldg_);                                                                    \
        CHECK_EQ(c_.stg, stg_);                                                                    \
        CHECK_EQ(c_.empty_masks, 0);                                                               \
        CHECK(c_.alu > 0);                                                                         \
    } while (0)

/* atax nx=ny=64.  Each kernel: 1 block of 256 (8 warps); guard < 64 keeps
 * warps 0 and 1; 64 iterations of LD A, LD x|tmp, LD acc, ST acc:
 * 2*64*3 = 384 loads, 2*64 = 128 stores per kernel. */
static void test_atax(void)
{
    const char *s = "polybench/atax:nx=64,ny=64";
    CHECK_COUNTS(s, 2, 768, 256);
    uint64_t A = BASE0, x = next_base(A, 64 * 64 * 4), y = next_base(x, 64 * 4);
    uint64_t tmp = next_base(y, 64 * 4);
    CHECK_EQ(x, 0x10004000);
    CHECK_EQ(tmp, 0x10006000);
    /* k1 warp 0, j = 5: 4 mem ops per iteration -> ordinals 20..23.
     * lane l: A[(l)*NY + 5] -> A + 20 + 256*l; x[5] broadcast; tmp[l]. */
    CHECK_MEM(s, 0, 0, 0, 20, WC_OP_LDG, A + 5 * 4, 64 * 4, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 0, 21, WC_OP_LDG, x + 5 * 4, 0, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 0, 22, WC_OP_LDG, tmp, 4, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 1, 23, WC_OP_STG, tmp + 32 * 4, 4, 0xffffffffu);
    /* k2 warp 1, i = 3: A[3*NY + 32 + l], tmp[3] */
    CHECK_MEM(s, 1, 0, 1, 12, WC_OP_LDG, A + (3 * 64 + 32) * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 1, 0, 1, 13, WC_OP_LDG, tmp + 3 * 4, 0, 0xffffffffu);
    /* rmw=0: per active warp LD acc before, 2*64 loads, 1 store after:
     * 2 kernels * 2 warps * (1 + 128) = 516 loads, 4 stores.
     * rmw=2: loads as rmw=0, stores 2*2*64 = 256. */
    CHECK_COUNTS("polybench/atax:nx=64,ny=64,rmw=0", 2, 516, 4);
    CHECK_COUNTS("polybench/atax:nx=64,ny=64,rmw=2", 2, 516, 256);
    /* scale=1/64 gives the same 64 x 64 problem */
    CHECK_COUNTS("polybench/atax:scale=0.015625", 2, 768, 256);
}

/* bicg nx=64, ny=96.  k1 (j < 96, loop i < 64): 3 active warps, each
 * 1 init store + 64*(3 LD + 1 ST): 576 loads, 195 stores.  k2 (i < 64,
 * loop j < 96): 2 warps * (96*3) = 576 loads, 2*(1+96) = 194 stores. */
static void test_bicg(void)
{
    const char *s = "polybench/bicg:nx=64,ny=96";
    CHECK_COUNTS(s, 2, 1152, 389);
    uint64_t A = BASE0, r = next_base(A, 64 * 96 * 4), sv = next_base(r, 64 * 4);
    /* k1 warp 2 (j = 64 + l), i = 7: ordinal 1 + 4*7 = 29: A[7*96 + 64 + l] */
    CHECK_MEM(s, 0, 0, 2, 29, WC_OP_LDG, A + (7 * 96 + 64) * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 2, 30, WC_OP_LDG, r + 7 * 4, 0, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 2, 0, WC_OP_STG, sv + 64 * 4, 4, 0xffffffffu); /* s[j] = 0 */
    /* k2 warp 1 (i = 32 + l), j = 2: A[(32+l)*96 + 2] */
    CHECK_MEM(s, 1, 0, 1, 9, WC_OP_LDG, A + (32 * 96 + 2) * 4, 96 * 4, 0xffffffffu);
}

/* gesummv n=40: warp 0 full, warp 1 lanes 0..7.  Per warp: 40 * (6 LD + 2 ST)
 * + tail (LD tmp, LD y, ST y) = 242 loads, 81 stores; 2 warps. */
static void test_gesummv(void)
{
    const char *s = "polybench/gesummv:n=40";
    CHECK_COUNTS(s, 1, 484, 162);
    uint64_t A = BASE0, B = next_base(A, 40 * 40 * 4);
    CHECK_EQ(B, 0x10002000);
    /* warp 1 (i = 32 + l), j = 3, LD b: ordinal 3*8 + 4 = 28 */
    CHECK_MEM(s, 0, 0, 1, 28, WC_OP_LDG, B + (32 * 40 + 3) * 4, 40 * 4, 0xffu);
    /* rmw=0: per warp LD tmp, LD y before; 40*(LD a, LD x, LD b); ST tmp,
     * ST y after: 2*(2 + 120) = 244 loads, 4 stores */
    CHECK_COUNTS("polybench/gesummv:n=40,rmw=0", 1, 244, 4);
}

/* mvt n=64: each kernel 2 warps * 64 * (3 LD + 1 ST) = 384 loads, 128 stores */
static void test_mvt(void)
{
    const char *s = "polybench/mvt:n=64";
    CHECK_COUNTS(s, 2, 768, 256);
    /* k2 warp 1, j = 2: a[2*64 + 32 + l] */
    CHECK_MEM(s, 1, 0, 1, 8, WC_OP_LDG, BASE0 + (2 * 64 + 32) * 4, 4, 0xffffffffu);
    /* k1 warp 1, j = 2: a[(32+l)*64 + 2] */
    CHECK_MEM(s, 0, 0, 1, 8, WC_OP_LDG, BASE0 + (32 * 64 + 2) * 4, 64 * 4, 0xffffffffu);
}

/* syrk n=40, m=16: grid (2, 5) of 32x8; rows 0..39 all valid; x-block 0
 * full, x-block 1 lanes 0..7 -> 80 active warps.  Per warp: LD c, ST c
 * (c *= beta) + 16 * (LD a_i, LD a_j, LD c, ST c) = 49 loads, 17 stores. */
static void test_syrk(void)
{
    const char *s = "polybench/syrk:n=40,m=16";
    CHECK_COUNTS(s, 1, 80 * 49, 80 * 17);
    uint64_t A = BASE0, C = next_base(A, 40 * 16 * 4);
    /* block (1,2) = id 5, warp 3: i = 19, j = 32 + l; k = 4: ordinals 18, 19 */
    CHECK_MEM(s, 0, 5, 3, 18, WC_OP_LDG, A + (19 * 16 + 4) * 4, 0, 0xffu);
    CHECK_MEM(s, 0, 5, 3, 19, WC_OP_LDG, A + (32 * 16 + 4) * 4, 16 * 4, 0xffu);
    CHECK_MEM(s, 0, 5, 3, 0, WC_OP_LDG, C + (19 * 40 + 32) * 4, 4, 0xffu);
}

/* syr2k n=40, m=16: the same 80 warps; per warp 1 LD + 1 ST before and
 * 16 * (4 LD + LD c + ST c): 81 loads, 17 stores. */
static void test_syr2k(void)
{
    const char *s = "polybench/syr2k:n=40,m=16";
    CHECK_COUNTS(s, 1, 80 * 81, 80 * 17);
    uint64_t A = BASE0, B = next_base(A, 40 * 16 * 4);
    /* block 0 warp 1 (i = 1), k = 2: ordinals 2 + 6*2 = 14..17:
     * a[i*M+k], b[j*M+k], b[i*M+k], a[j*M+k] */
    CHECK_MEM(s, 0, 0, 1, 14, WC_OP_LDG, A + (16 + 2) * 4, 0, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 1, 15, WC_OP_LDG, B + 2 * 4, 16 * 4, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 1, 16, WC_OP_LDG, B + (16 + 2) * 4, 0, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 1, 17, WC_OP_LDG, A + 2 * 4, 16 * 4, 0xffffffffu);
}

/* gemm ni=48, nj=40, nk=16: grid (ceil(NI/32), ceil(NJ/8)) = (2, 5) as in
 * the source, so rows i = 0..39 exist (rows 40..47 are never computed);
 * j < 40: x-block 1 has lanes 0..7.  80 warps * (49 loads, 17 stores). */
static void test_gemm(void)
{
    const char *s = "polybench/gemm:ni=48,nj=40,nk=16";
    CHECK_COUNTS(s, 1, 80 * 49, 80 * 17);
    uint64_t A = BASE0, B = next_base(A, 48 * 16 * 4), C = next_base(B, 16 * 40 * 4);
    CHECK_EQ(B, 0x10001000);
    CHECK_EQ(C, 0x10002000);
    /* block 0 warp 0, k = 2: ordinal 2 + 4*2 + 1 = 11: b[2*40 + l] */
    CHECK_MEM(s, 0, 0, 0, 11, WC_OP_LDG, B + 2 * 40 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 0, 10, WC_OP_LDG, A + 2 * 4, 0, 0xffffffffu);
}

/* 2mm ni=16 nj=24 nk=8 nl=40.  k1: grid (1, 2), i < 16, j < 24: 16 warps *
 * 8 * (3 LD + 1 ST) = 384 / 128.  k2: grid (2, 2), j < 40: 32 warps *
 * 24 * (3 + 1) = 2304 / 768. */
static void test_2mm(void)
{
    const char *s = "polybench/2mm:ni=16,nj=24,nk=8,nl=40";
    CHECK_COUNTS(s, 2, 2688, 896);
    uint64_t A = BASE0, B = next_base(A, 16 * 8 * 4), C = next_base(B, 8 * 24 * 4);
    uint64_t D = next_base(C, 16 * 24 * 4);
    /* k1 block 1 warp 0 (i = 8), k = 1: A[8*8 + 1]; lanes j < 24 */
    CHECK_MEM(s, 0, 1, 0, 4, WC_OP_LDG, A + (8 * 8 + 1) * 4, 0, 0xffffffu);
    /* k2 block 1 (x=1) warp 2 (i = 2), k = 3: C[2*24 + 3], D[3*40 + 32 + l] */
    CHECK_MEM(s, 1, 1, 2, 12, WC_OP_LDG, C + (2 * 24 + 3) * 4, 0, 0xffu);
    CHECK_MEM(s, 1, 1, 2, 13, WC_OP_LDG, D + (3 * 40 + 32) * 4, 4, 0xffu);
}

/* 3mm ni=16 nj=24 nk=8 nl=40 nm=12.  k1: 16 warps * 8*(3+1) = 384/128;
 * k2: grid (2, 3), i < 24, j < 40: 48 warps * 12*(3+1) = 1728/576;
 * k3: grid (2, 2): 32 warps * 24*(3+1) = 2304/768. */
static void test_3mm(void)
{
    const char *s = "polybench/3mm:ni=16,nj=24,nk=8,nl=40,nm=12";
    CHECK_COUNTS(s, 3, 4416, 1472);
    uint64_t A = BASE0, B = next_base(A, 16 * 8 * 4), C = next_base(B, 8 * 24 * 4);
    uint64_t D = next_base(C, 24 * 12 * 4), E = next_base(D, 12 * 40 * 4);
    uint64_t F = next_base(E, 16 * 24 * 4);
    /* k3 block 0 warp 5 (i = 5), k = 7: E[5*24 + 7], F[7*40 + l] */
    CHECK_MEM(s, 2, 0, 5, 28, WC_OP_LDG, E + (5 * 24 + 7) * 4, 0, 0xffffffffu);
    CHECK_MEM(s, 2, 0, 5, 29, WC_OP_LDG, F + 7 * 40 * 4, 4, 0xffffffffu);
    /* k2 block 4 (x=0, y=2) warp 7: i = 23 < NJ: C[23*12 + 0] */
    CHECK_MEM(s, 1, 4, 7, 0, WC_OP_LDG, C + 23 * 12 * 4, 0, 0xffffffffu);
    /* k1 block 1 (y=1) warp 0: i = 8, k = 1, lanes j < 24: A[8*8 + 1], B[1*24 + l] */
    CHECK_MEM(s, 0, 1, 0, 4, WC_OP_LDG, A + (8 * 8 + 1) * 4, 0, 0xffffffu);
    CHECK_MEM(s, 0, 1, 0, 5, WC_OP_LDG, B + 24 * 4, 4, 0xffffffu);
}

/* 2DConvolution ni=nj=40: grid (2, 5); rows 1..38 (38 rows) * 2 warps
 * (x0: j 1..31, x1: j 32..38); each 9 loads + 1 store. */
static void test_2dconv(void)
{
    const char *s = "polybench/2dconv:ni=40,nj=40";
    CHECK_COUNTS(s, 1, 76 * 9, 76);
    uint64_t A = BASE0, B = next_base(A, 40 * 40 * 4);
    /* block 0 warp 1 (i = 1): first load A[0*40 + l - 1] (lane 0 masked) */
    CHECK_MEM(s, 0, 0, 1, 0, WC_OP_LDG, A - 4, 4, 0xfffffffeu);
    CHECK_MEM(s, 0, 0, 1, 8, WC_OP_LDG, A + (2 * 40 + 1) * 4, 4, 0xfffffffeu);
    CHECK_MEM(s, 0, 0, 1, 9, WC_OP_STG, B + 40 * 4, 4, 0xfffffffeu);
    /* block 1 (x=1) warp 0 is row 0: inactive; warp 2 (i = 2): j 32..38 */
    CHECK_MEM(s, 0, 1, 2, 4, WC_OP_LDG, A + (2 * 40 + 32) * 4, 4, 0x7fu);
}

/* 3DConvolution ni=6 nj=16 nk=40: launches i = 1..4; grid (2, 2);
 * j = 1..14 (14 rows) * 2 warps (k 1..31, 32..38) = 28 warps per launch,
 * 15 loads + 1 store each: 4*28*15 = 1680 loads, 112 stores.  cse=1 keeps
 * 11 distinct loads: 4*28*11 = 1232. */
static void test_3dconv(void)
{
    const char *s = "polybench/3dconv:ni=6,nj=16,nk=40";
    CHECK_COUNTS(s, 4, 1680, 112);
    CHECK_COUNTS("polybench/3dconv:ni=6,nj=16,nk=40,cse=1", 4, 1232, 112);
    /* launch 2 (i = 3), block 0, warp 1 (j = 1): second load (i+1, j-1, k-1)
     * = 4*640 + 0*40 + l - 1; NK*NJ = 640 */
    CHECK_MEM(s, 2, 0, 1, 1, WC_OP_LDG, BASE0 + (4 * 640 - 1) * 4, 4, 0xfffffffeu);
    /* 8th load (0, 0, 0) = 3*640 + 40 + l */
    CHECK_MEM(s, 2, 0, 1, 7, WC_OP_LDG, BASE0 + (3 * 640 + 40) * 4, 4, 0xfffffffeu);
    uint64_t B = next_base(BASE0, 6 * 16 * 40 * 4);
    CHECK_MEM(s, 2, 0, 1, 15, WC_OP_STG, B + (3 * 640 + 40) * 4, 4, 0xfffffffeu);
}

/* fdtd-2d nx=16 ny=40 tmax=2: grid (2, 2), 32 warps (x1: j 32..39).
 * step1: row 0 (2 warps) LD fict + ST; rows 1..15 (30 warps) 3 LD + ST:
 * 92 / 32.  step2 (0 < j): 32 warps * (3 + 1): 96 / 32.  step3: 32 * (5 + 1):
 * 160 / 32.  Per t 348 / 96; 2 steps, 6 launches. */
static void test_fdtd2d(void)
{
    const char *s = "polybench/fdtd2d:nx=16,ny=40,tmax=2";
    CHECK_COUNTS(s, 6, 696, 192);
    uint64_t fict = BASE0, ex = next_base(fict, 2 * 4), ey = next_base(ex, 16 * 41 * 4);
    uint64_t hz = next_base(ey, 17 * 40 * 4);
    CHECK_EQ(ex, 0x10001000);
    CHECK_EQ(hz, 0x10003000);
    /* launch 3 = step1 at t = 1, block 0 warp 0 (i = 0): fict[1], ey[j] */
    CHECK_MEM(s, 3, 0, 0, 0, WC_OP_LDG, fict + 4, 0, 0xffffffffu);
    CHECK_MEM(s, 3, 0, 0, 1, WC_OP_STG, ey, 4, 0xffffffffu);
    /* step1, warp 1 (i = 1): hz[(i-1)*NY + j] */
    CHECK_MEM(s, 0, 0, 1, 2, WC_OP_LDG, hz, 4, 0xffffffffu);
    /* step2 block 0 warp 0: ex[0*(NY+1) + j], lane 0 (j = 0) masked */
    CHECK_MEM(s, 1, 0, 0, 0, WC_OP_LDG, ex, 4, 0xfffffffeu);
    /* step3 block 3 (x=1, y=1) warp 2: i = 10, j = 32 + l (8 lanes):
     * ex[10*41 + j + 1], ey[(11)*40 + j] */
    CHECK_MEM(s, 2, 3, 2, 1, WC_OP_LDG, ex + (10 * 41 + 33) * 4, 4, 0xffu);
    CHECK_MEM(s, 2, 3, 2, 3, WC_OP_LDG, ey + (11 * 40 + 32) * 4, 4, 0xffu);
}

/* correlation m=256 n=8 (1-based, stride 257).
 * mean: 1 block, 8 warps, all 256 threads (j = 1..256); per warp ST init,
 *   8*(LD data, LD mean, ST mean), LD mean + ST: 17 loads, 10 stores -> 136/80.
 * std: per warp ST init, 8*(3 LD + ST), then 3 LD + 2 ST: 27/11 -> 216/88.
 * reduce: grid (8, 1) of 32x8 = 64 warps * (4 LD, 2 ST) -> 256/128.
 * corr: j1 = gx+1 < 256 (lane 31 of warp 7 idle); j2 = gx+2+t <= 256, so
 *   warp w runs 255 - 32w j2-iterations: sum = 8*255 - 32*28 = 1144; each
 *   ST init, 8*(3 LD + ST), LD + ST mirror = 25 loads, 10 stores; plus one
 *   diagonal store per warp: 28600 / 11448.
 * Totals 29208 loads, 11744 stores. */
static void test_correlation(void)
{
    const char *s = "polybench/correlation:m=256,n=8";
    CHECK_COUNTS(s, 4, 29208, 11744);
    uint64_t data = BASE0, symmat = next_base(data, 257 * 9 * 4);
    CHECK_EQ(symmat, 0x10003000);
    /* corr warp 0, t = 250 (j2 = l + 252, lanes with j2 <= 256: 0..4),
     * inner i = 3: ordinal 1 + 35*250 + 1 + 4*2 + 1 = 8761:
     * data[3*257 + l + 252] */
    CHECK_MEM(s, 3, 0, 0, 8761, WC_OP_LDG, data + (3 * 257 + 252) * 4, 4, 0x1fu);
    /* the mirror store at ordinal 1 + 35*250 + 34: symmat[(l+252)*257 + l+1] */
    CHECK_MEM(s, 3, 0, 0, 8785, WC_OP_STG, symmat + (252 * 257 + 1) * 4, 258 * 4, 0x1fu);
    /* diagonal symmat[j1*257 + j1], warp 7: lanes 0..30 */
    CHECK_MEM(s, 3, 0, 7, 0, WC_OP_STG, symmat + (225 * 257 + 225) * 4, 258 * 4, 0x7fffffffu);
    /* mean warp 1, i = 2: data[2*257 + 33 + l] */
    CHECK_MEM(s, 0, 0, 1, 4, WC_OP_LDG, data + (2 * 257 + 33) * 4, 4, 0xffffffffu);
    uint64_t stddev = next_base(symmat, 257 * 9 * 4), mean = next_base(stddev, 257 * 4);
    CHECK_EQ(stddev, 0x10006000);
    CHECK_EQ(mean, 0x10007000);
    /* std warp 0, i = 2 (ordinals 5..8): data[2*257 + 1 + l], mean[1 + l], std[1 + l] */
    CHECK_MEM(s, 1, 0, 0, 0, WC_OP_STG, stddev + 4, 4, 0xffffffffu);
    CHECK_MEM(s, 1, 0, 0, 5, WC_OP_LDG, data + (2 * 257 + 1) * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 1, 0, 0, 6, WC_OP_LDG, mean + 4, 4, 0xffffffffu);
    CHECK_MEM(s, 1, 0, 0, 7, WC_OP_LDG, stddev + 4, 4, 0xffffffffu);
    /* reduce block 2 (x=2), warp 5: j = 65 + l, i = 6: LD data, LD mean, ST,
     * LD data, LD std, ST */
    CHECK_MEM(s, 2, 2, 5, 0, WC_OP_LDG, data + (6 * 257 + 65) * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 2, 2, 5, 1, WC_OP_LDG, mean + 65 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 2, 2, 5, 2, WC_OP_STG, data + (6 * 257 + 65) * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 2, 2, 5, 4, WC_OP_LDG, stddev + 65 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 2, 2, 5, 5, WC_OP_STG, data + (6 * 257 + 65) * 4, 4, 0xffffffffu);
}

/* covariance m=256 n=32.
 * mean: 8 warps * (ST + 32*(2 LD + ST) + LD + ST) = 65 loads, 34 stores
 *   -> 520 / 272.
 * reduce: grid (256/32, 32/32) = (8, 1): rows i = 1..8 only; 64 warps *
 *   (2 LD + ST) -> 128 / 64.
 * covar: j2 = gx+1+t <= 256: warp w runs 256 - 32w iterations, sum
 *   8*256 - 32*28 = 1152; each ST init, 32*(3 LD + ST), LD + ST mirror =
 *   97 loads, 34 stores -> 111744 / 39168.
 * Totals 112392 loads, 39504 stores. */
static void test_covariance(void)
{
    const char *s = "polybench/covariance:m=256,n=32";
    CHECK_COUNTS(s, 3, 112392, 39504);
    uint64_t data = BASE0, symmat = next_base(data, 257 * 33 * 4);
    /* reduce grid is (8, 1): block 0 warp 7 is row i = 8 */
    wc_winst in;
    wc_kernel k;
    CHECK(wl_nth_mem(s, 1, 0, 7, 0, &in, &k) == 0);
    CHECK_EQ(k.grid.x, 8);
    CHECK_EQ(k.grid.y, 1);
    CHECK_EQ(in.base, data + (8 * 257 + 1) * 4);
    /* covar warp 1 (j1 = 33 + l), t = 0: symmat[j1*257 + j1] init store */
    CHECK_MEM(s, 2, 0, 1, 0, WC_OP_STG, symmat + (33 * 257 + 33) * 4, 258 * 4, 0xffffffffu);
}

/* gramschmidt m=40 n=48: 48 iterations k, 3 launches each (144).
 * k1: thread 0 only: 40 loads + 1 store -> 1920 / 48.
 * k2: i < 40: warps 0, 1: 2 LD + ST each -> 4 / 2 per k -> 192 / 96.
 * k3: k < j < 48: warp 0 active for k <= 30 (31 launches), warp 1 for
 *   k <= 46 (47): 78 warp-launches * (ST init + 40*(3 LD + ST) +
 *   40*(3 LD + ST)) = 78 * 240 = 18720 loads, 78 * 81 = 6318 stores.
 * Totals 20832 / 6462. */
static void test_gramschmidt(void)
{
    const char *s = "polybench/gramschmidt:m=40,n=48";
    CHECK_COUNTS(s, 144, 20832, 6462);
    uint64_t A = BASE0, R = next_base(A, 40 * 48 * 4), Q = next_base(R, 48 * 48 * 4);
    /* k = 35, kernel3 = launch 107, warp 1: j = 36..47 = lanes 4..15 */
    CHECK_MEM(s, 107, 0, 1, 0, WC_OP_STG, R + (35 * 48 + 32) * 4, 4, 0xfff0u);
    /* first loop, i = 2: q[2*48 + 35], a[2*48 + 32 + l] */
    CHECK_MEM(s, 107, 0, 1, 9, WC_OP_LDG, Q + (2 * 48 + 35) * 4, 0, 0xfff0u);
    CHECK_MEM(s, 107, 0, 1, 10, WC_OP_LDG, A + (2 * 48 + 32) * 4, 4, 0xfff0u);
    /* k1 at k = 5 (launch 15): thread 0 reads a[i*48 + 5], i = 3 */
    CHECK_MEM(s, 15, 0, 0, 3, WC_OP_LDG, A + (3 * 48 + 5) * 4, 0, 0x1u);
    /* k2 at k = 5 (launch 16), warp 1: i = 32 + l < 40 */
    CHECK_EQ(Q, 0x10005000);
    CHECK_MEM(s, 16, 0, 1, 0, WC_OP_LDG, A + (32 * 48 + 5) * 4, 48 * 4, 0xffu);
    CHECK_MEM(s, 16, 0, 1, 1, WC_OP_LDG, R + (5 * 48 + 5) * 4, 0, 0xffu);
    CHECK_MEM(s, 16, 0, 1, 2, WC_OP_STG, Q + (32 * 48 + 5) * 4, 48 * 4, 0xffu);
}

/* lu n=40: k = 0..39; both grids are empty at k = 39 (not launched): 78.
 * k1: j in (k, 40): warp 0 for k <= 30, warp 1 for k <= 38: 70 warps *
 *   (2 LD + ST) = 140 / 70.
 * k2: R = 39-k, grid (ceil(R/32), ceil(R/8)) from block 0; active rows
 *   k < i < min(40, 8*ceil(R/8)); warps per row: 2 for k <= 6, 1 after.
 *   k=0..6: 2*(39-k) = 78+76+74+72+70+68+66 = 504;
 *   k=7..14: rows k+1..31: 24+23+...+17 = 164;
 *   k=15..22: rows k+1..23: 8+7+...+1 = 36;  k >= 23: none.
 *   704 warps * (3 LD + ST) = 2112 / 704.
 * Totals 2252 / 774. */
static void test_lu(void)
{
    const char *s = "polybench/lu:n=40";
    CHECK_COUNTS(s, 78, 2252, 774);
    /* k = 7: launch 15 is kernel2 with grid (1, 4) */
    wc_winst in;
    wc_kernel k;
    CHECK(wl_nth_mem(s, 15, 3, 0, 0, &in, &k) == 0); /* block (0,3) warp 0: i = 24 */
    CHECK_EQ(k.grid.x, 1);
    CHECK_EQ(k.grid.y, 4);
    CHECK_EQ(in.base, BASE0 + 24 * 40 * 4);
    CHECK_EQ(in.mask, 0xffffff00u); /* j > 7 */
    /* A[i*N + k] broadcast and A[k*N + j] */
    CHECK_MEM(s, 15, 3, 0, 1, WC_OP_LDG, BASE0 + (24 * 40 + 7) * 4, 0, 0xffffff00u);
    CHECK_MEM(s, 15, 3, 0, 2, WC_OP_LDG, BASE0 + 7 * 40 * 4, 4, 0xffffff00u);
    /* kernel1 at k = 3 (launch 6), warp 0: j = 4..31 */
    CHECK_MEM(s, 6, 0, 0, 0, WC_OP_LDG, BASE0 + 3 * 40 * 4, 4, 0xfffffff0u);
    CHECK_MEM(s, 6, 0, 0, 1, WC_OP_LDG, BASE0 + (3 * 40 + 3) * 4, 0, 0xfffffff0u);
    CHECK_MEM(s, 6, 0, 0, 2, WC_OP_STG, BASE0 + 3 * 40 * 4, 4, 0xfffffff0u);
}

/* jacobi-2d n=40 tsteps=2: guard 1 < i, j < 39 (the 1.0 source's i > 1):
 * rows 2..38 (37) * 2 warps = 74 warps; kernel1 5 LD + ST, kernel2 LD + ST:
 * per step 444 / 148; 2 steps. */
static void test_jacobi2d(void)
{
    const char *s = "polybench/jacobi2d:n=40,tsteps=2";
    CHECK_COUNTS(s, 4, 888, 296);
    uint64_t A = BASE0, B = next_base(A, 40 * 40 * 4);
    CHECK_MEM(s, 0, 0, 2, 4, WC_OP_LDG, A + (1 * 40) * 4, 4, 0xfffffffcu); /* A[(i-1)*N+j] */
    CHECK_MEM(s, 3, 0, 2, 0, WC_OP_LDG, B + 2 * 40 * 4, 4, 0xfffffffcu);
}

/* doitgen nr=3 nq=12 np=40: grid (2, ceil(NR/8) = 1): q = 0..7 only;
 * 16 warps.  kernel1: ST init + 40*(3 LD + ST) = 120 / 41 per warp;
 * kernel2: LD + ST.  Per r: 16*121 = 1936 loads, 16*42 = 672 stores. */
static void test_doitgen(void)
{
    const char *s = "polybench/doitgen:nr=3,nq=12,np=40";
    CHECK_COUNTS(s, 6, 3 * 1936, 3 * 672);
    uint64_t A = BASE0, C4 = next_base(A, 3 * 12 * 40 * 4);
    CHECK_EQ(C4, 0x10002000);
    /* r = 2 kernel1 (launch 4), block 1 warp 3 (q = 3, p = 32 + l), s = 5 */
    CHECK_MEM(s, 4, 1, 3, 22, WC_OP_LDG, A + (2 * 480 + 3 * 40 + 5) * 4, 0, 0xffu);
    CHECK_MEM(s, 4, 1, 3, 23, WC_OP_LDG, C4 + (5 * 40 + 32) * 4, 4, 0xffu);
    /* r = 1 kernel2 (launch 3), warp 4 (q = 4): sum[480 + 160 + l] -> A[..] */
    uint64_t sum = next_base(C4, 40 * 40 * 4);
    CHECK_MEM(s, 3, 0, 4, 0, WC_OP_LDG, sum + (480 + 160) * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 3, 0, 4, 1, WC_OP_STG, A + (480 + 160) * 4, 4, 0xffffffffu);
}

/* gemver n=256: k1 grid (8, 32) = 2048 warps * (5 LD + ST) = 10240 / 2048;
 * k2: 8 warps * (256*(3 LD + ST) + LD z + LD x + ST x) = 6160 / 2056;
 * k3: 8 warps * 256*(3 + 1) = 6144 / 2048.  Totals 22544 / 6152. */
static void test_gemver(void)
{
    const char *s = "polybench/gemver:n=256";
    CHECK_COUNTS(s, 3, 22544, 6152);
    /* the source truncates grids: n = 300 gives k1 (9, 37), k2 1 block */
    wc_winst in;
    wc_kernel k;
    CHECK(wl_nth_mem("polybench/gemver:n=300", 0, 0, 0, 0, &in, &k) == 0);
    CHECK_EQ(k.grid.x, 9);
    CHECK_EQ(k.grid.y, 37);
    CHECK(wl_nth_mem("polybench/gemver:n=300", 1, 0, 0, 0, &in, &k) == 0);
    CHECK_EQ(k.grid.x, 1);
    /* k2 warp 3 (i = 96 + l), j = 10: a[10*256 + 96 + l] */
    CHECK_MEM(s, 1, 0, 3, 40, WC_OP_LDG, BASE0 + (10 * 256 + 96) * 4, 4, 0xffffffffu);
    /* arrays: A, B (256 KB each), then x, y, z, w, v1, v2, u1, u2 at 4 KB steps */
    uint64_t x = BASE0 + 2 * 0x40000, w = x + 3 * 4096, v1 = x + 4 * 4096, u1 = x + 6 * 4096;
    /* k1 block 17 (x=1, y=2) warp 3: i = 19, j = 32 + l */
    CHECK_MEM(s, 0, 17, 3, 0, WC_OP_LDG, u1 + 19 * 4, 0, 0xffffffffu);
    CHECK_MEM(s, 0, 17, 3, 1, WC_OP_LDG, v1 + 32 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 0, 17, 3, 4, WC_OP_LDG, BASE0 + (19 * 256 + 32) * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 0, 17, 3, 5, WC_OP_STG, BASE0 + (19 * 256 + 32) * 4, 4, 0xffffffffu);
    /* k3 warp 2 (i = 64 + l), j = 7: a[i*256 + 7], x[7], w[i] */
    CHECK_MEM(s, 2, 0, 2, 28, WC_OP_LDG, BASE0 + (64 * 256 + 7) * 4, 1024, 0xffffffffu);
    CHECK_MEM(s, 2, 0, 2, 29, WC_OP_LDG, x + 7 * 4, 0, 0xffffffffu);
    CHECK_MEM(s, 2, 0, 2, 31, WC_OP_STG, w + 64 * 4, 4, 0xffffffffu);
}

/* adi n=40 tsteps=1: 1 block, warps 0 and 1 (8 lanes) per launch.
 * k1: 39 iterations * (7 LD + 2 ST) * 2 = 546 / 156;  k2: 2*(2 + 1) = 4 / 2;
 * k3: 38 * (4 + 1) * 2 = 304 / 76;  k4 x 39: 2*(7 + 2) -> 546 / 156;
 * k5: 4 / 2;  k6 x 38: 2*(4 + 1) -> 304 / 76.  Totals 1708 / 468,
 * 3 + 39 + 1 + 38 = 81 launches. */
static void test_adi(void)
{
    const char *s = "polybench/adi:n=40";
    CHECK_COUNTS(s, 81, 1708, 468);
    uint64_t X = next_base(next_base(BASE0, 40 * 40 * 4), 40 * 40 * 4);
    CHECK_EQ(X, 0x10004000);
    /* k3 warp 1 (i1 = 32 + l), i2 = 5: X[i1*40 + 40 - 2 - 5] */
    CHECK_MEM(s, 2, 0, 1, 25, WC_OP_LDG, X + (32 * 40 + 33) * 4, 40 * 4, 0xffu);
    /* k6 with i1 = 10 is launch 3 + 39 + 1 + 10 = 53: X[(40-10-3)*40 + l] */
    CHECK_MEM(s, 53, 0, 0, 1, WC_OP_LDG, X + 27 * 40 * 4, 4, 0xffffffffu);
    /* k1 warp 0, i2 = 1: X[i1*40 + 1], X[i1*40 + 0] */
    CHECK_MEM(s, 0, 0, 0, 0, WC_OP_LDG, X + 4, 160, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 0, 1, WC_OP_LDG, X, 160, 0xffffffffu);
    uint64_t A = BASE0, B = 0x10002000;
    /* k2 warp 1 (i1 = 32 + l): X[i1*40 + 39], B[i1*40 + 39] */
    CHECK_MEM(s, 1, 0, 1, 0, WC_OP_LDG, X + (32 * 40 + 39) * 4, 160, 0xffu);
    CHECK_MEM(s, 1, 0, 1, 1, WC_OP_LDG, B + (32 * 40 + 39) * 4, 160, 0xffu);
    /* k4 with i1 = 5 (launch 7), warp 0: rows 5 and 4 */
    CHECK_MEM(s, 7, 0, 0, 0, WC_OP_LDG, X + 200 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 7, 0, 0, 1, WC_OP_LDG, X + 160 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 7, 0, 0, 2, WC_OP_LDG, A + 200 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 7, 0, 0, 3, WC_OP_LDG, B + 160 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 7, 0, 0, 4, WC_OP_STG, X + 200 * 4, 4, 0xffffffffu);
    CHECK_MEM(s, 7, 0, 0, 8, WC_OP_STG, B + 200 * 4, 4, 0xffffffffu);
    /* k5 (launch 42), warp 1: X[39*40 + 32 + l] */
    CHECK_MEM(s, 42, 0, 1, 0, WC_OP_LDG, X + (39 * 40 + 32) * 4, 4, 0xffu);
}

/* Registry entries: suite, kernels in launch order, seed classes. */
static void test_registry(void)
{
    const wc_workload *w = wc_workload_find("polybench/syrk");
    CHECK(w != NULL);
    if (w) {
        CHECK_STR(w->suite, "polybench");
        CHECK_STR(w->classes, "002:thrashing 002:conflict 004:XW");
    }
    w = wc_workload_find("atax");
    CHECK(w != NULL && strcmp(w->name, "polybench/atax") == 0);
    w = wc_workload_find("polybench/correlation");
    CHECK(w && strcmp(w->kernels, "mean_kernel std_kernel reduce_kernel corr_kernel") == 0);
    w = wc_workload_find("polybench/2dconv");
    CHECK(w && strcmp(w->classes, "002:conflict 004:CI") == 0);
    const char *all[] = {"atax",   "bicg",     "gesummv",     "mvt",        "syrk",
                         "syr2k",  "gemm",     "2mm",         "3mm",        "2dconv",
                         "3dconv", "fdtd2d",   "correlation", "covariance", "gramschmidt",
                         "lu",     "jacobi2d", "doitgen",     "gemver",     "adi"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "polybench/%s", all[i]);
        CHECK(wc_workload_find(name) != NULL);
    }
}

/* Bad parameters are errors, not crashes. */
static void test_bad_params(void)
{
    wc_err err;
    CHECK(wc_workload_open("polybench/atax:rmw=3", 1, &err) == NULL);
    CHECK(wc_workload_open("polybench/atax:nx=0", 1, &err) == NULL);
    CHECK(wc_workload_open("polybench/atax:bogus=1", 1, &err) == NULL);
    CHECK(wc_workload_open("polybench/gemm:scale=0", 1, &err) == NULL);
    CHECK(wc_workload_open("polybench/3dconv:ni=1048576,nj=1048576,nk=1048576", 1, &err) == NULL);
    CHECK(strstr(err.msg, "too large") != NULL);
}

/* Default sizes open and produce the right first launch without pulling the
 * (very long) whole run; the generator keeps O(1) state per warp, so the
 * first instructions of a default-size kernel come immediately. */
static void test_default_sizes(void)
{
    wc_winst in;
    wc_kernel k;
    CHECK(wl_nth_mem("polybench/atax", 0, 15, 7, 0, &in, &k) == 0);
    CHECK_EQ(k.grid.x, 16);
    CHECK_EQ(in.stride, 4096 * 4);
    CHECK(wl_nth_mem("polybench/3dconv", 253, 0, 1, 0, &in, &k) == 0); /* 254 launches */
    CHECK(wl_nth_mem("polybench/3dconv", 254, 0, 1, 0, &in, &k) != 0);
    CHECK(wl_nth_mem("polybench/syr2k", 0, 0, 0, 0, &in, &k) == 0);
    CHECK_EQ(k.grid.x, 64);
    CHECK_EQ(k.grid.y, 256);
    CHECK(wl_nth_mem("polybench/fdtd2d", 1499, 0, 1, 0, &in, &k) == 0); /* 3 x 500 */
    CHECK(strcmp(k.name, "fdtd_step3_kernel") == 0);
}

int main(void)
{
    RUN(test_atax);
    RUN(test_bicg);
    RUN(test_gesummv);
    RUN(test_mvt);
    RUN(test_syrk);
    RUN(test_syr2k);
    RUN(test_gemm);
    RUN(test_2mm);
    RUN(test_3mm);
    RUN(test_2dconv);
    RUN(test_3dconv);
    RUN(test_fdtd2d);
    RUN(test_correlation);
    RUN(test_covariance);
    RUN(test_gramschmidt);
    RUN(test_lu);
    RUN(test_jacobi2d);
    RUN(test_doitgen);
    RUN(test_gemver);
    RUN(test_adi);
    RUN(test_registry);
    RUN(test_bad_params);
    RUN(test_default_sizes);
    return check_summary("wl_polybench");
}
