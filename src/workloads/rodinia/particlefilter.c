/*
 * particlefilter.c - Rodinia particlefilter as an address generator: the
 * naive CUDA version (particlefilter_naive -x 128 -y 128 -z 10 -np 1000,
 * the default) and, with float=1, the "float" version (particlefilter_float,
 * the same command), which runs the whole filter on the GPU.  Facts from
 * ../shared/specs/workloads.md (Rodinia) and Rodinia 3.1's
 * ex_particle_CUDA_{naive,float}_seq.cu.
 *
 * NAIVE (float=0).
 * One kernel<<<ceil(N/128), 128>>> per frame after the first (9 for 10
 * frames).  Thread i < N loads u[i], then scans x = 0, 1, ... loading CDF[x]
 * (the same element in every lane: a broadcast) until CDF[x] >= u[i]; then
 * gathers arrayX[index], arrayY[index] and stores xj[i], yj[i].  The warp
 * keeps loading CDF while any lane searches, so the loop length is the
 * largest index in the warp.
 *
 * Approximation (documented): the video likelihoods that set the weights are
 * not simulated; each frame's weights are seeded (exp of a uniform in [-4,0],
 * normalised), CDF is their prefix sum with CDF[N-1] = 1, and u[i] = u1 + i/N
 * with u1 uniform in [0, 1/N), as in the original.  The search is really
 * performed on these values.  With video=1 they are not seeded: the host
 * code's filter (the video, motion and likelihoods of the FLOAT section
 * below, which the naive version runs on the host) sets them, so the weights
 * are as concentrated as the source's and every particle finds about the
 * same index.
 * Arrays: 0 CDF, 1 u, 2 arrayX, 3 arrayY, 4 xj, 5 yj.  (The source's arrays
 * are doubles; this model keeps the 4-byte elements it has always had, so
 * that its results do not move.)
 *
 * FLOAT (float=1): see the second half of this file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

typedef struct pff_ctx pff_ctx;
static void pff_filter_frame(pff_ctx *f, long k, uint32_t *index);
static void pff_destroy(void *ctx);

typedef struct pfil_ctx {
    uint64_t n, frames, rng;
    uint32_t *index; /* this launch's found index per particle */
    pff_ctx *filter; /* video=1: the filter computed on the host, as the source does */
    long k;          /* the frame of the next launch */
} pfil_ctx;

static void pfil_frame(pfil_ctx *c)
{
    if (c->filter) {
        pff_filter_frame(c->filter, ++c->k, c->index);
        return;
    }
    double *cdf = malloc(c->n * sizeof *cdf), sum = 0;
    if (!cdf) { /* degrade to a uniform CDF */
        for (uint64_t i = 0; i < c->n; i++) c->index[i] = (uint32_t)i;
        return;
    }
    for (uint64_t j = 0; j < c->n; j++) {
        sum += exp(-4.0 * wc_rng_unit(&c->rng));
        cdf[j] = sum;
    }
    for (uint64_t j = 0; j < c->n; j++) cdf[j] /= sum;
    cdf[c->n - 1] = 1.0;
    double u1 = wc_rng_unit(&c->rng) / (double)c->n;
    uint64_t x = 0;
    for (uint64_t i = 0; i < c->n; i++) { /* u is increasing: the scan resumes */
        double u = u1 + (double)i / (double)c->n;
        while (x < c->n - 1 && cdf[x] < u) x++;
        c->index[i] = (uint32_t)x;
    }
    free(cdf);
}

static void pfil_gather(const pfil_ctx *c, wc_winst *o, uint64_t pc, uint32_t m, unsigned reg,
                        uint64_t i0, uint64_t arr)
{
    wc_gen_mem_list(o, pc, WC_OP_LDG, m, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (m >> l & 1u) o->addr[l] = arr + c->index[i0 + l] * 4ull;
}

static int pfil_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pfil_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * 128 + w->warp * 32;
    uint32_t live = wc_gen_mask_below(i0, c->n), searching = 0;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!live) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 1, 2, 4, WC_GEN_REGION(1) + i0 * 4, 4));
    w->v[1] = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1u) && c->index[i0 + l] > w->v[1]) w->v[1] = c->index[i0 + l];
    for (w->v[0] = 0; w->v[0] <= w->v[1]; w->v[0]++) {
        searching = 0;
        for (unsigned l = 0; l < WC_WARP_SIZE; l++)
            if ((live >> l & 1u) && c->index[i0 + l] >= w->v[0]) searching |= 1u << l;
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, searching, 3, WC_REG_NONE, 4,
                                 WC_GEN_REGION(0) + (uint64_t)w->v[0] * 4, 0));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, 0xffffffffu, WC_REG_NONE, 3, 1));
    }
    WC_CO_EMIT(w, pfil_gather(c, o, 0x28, live, 4, i0, WC_GEN_REGION(2)));
    WC_CO_EMIT(w, pfil_gather(c, o, 0x30, live, 5, i0, WC_GEN_REGION(3)));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_STG, live, 4, 2, 4, WC_GEN_REGION(4) + i0 * 4, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_STG, live, 5, 2, 4, WC_GEN_REGION(5) + i0 * 4, 4));
    WC_CO_END(w);
}

static int pfil_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    pfil_ctx *c = ctx;
    if (idx + 1 >= c->frames) return 0;
    pfil_frame(c);
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "kernel");
    out->k.block = (wc_dim3){128, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->n + 127) / 128), 1, 1};
    out->k.regs_per_thread = 16;
    out->next = pfil_next;
    return 1;
}

static void pfil_destroy(void *ctx)
{
    pfil_ctx *c = ctx;
    if (c->filter) pff_destroy(c->filter);
    free(c->index);
    free(c);
}

/* ---- FLOAT version ----------------------------------------------------------
 *
 * Per frame k = 1 .. frames-1, four launches of ceil(N/512) blocks of 512
 * threads (the source's threads_per_block):
 *  likelihood_kernel: i < N copies xj[i], yj[i] to arrayX[i], arrayY[i],
 *    stores weights[i] = 1/N, moves arrayX[i], arrayY[i] by d_randn (each of
 *    its two d_randu loads and stores seed[i]); barrier; for y < countOnes
 *    (69 pixels in the radius-5 disk) it loads objxy[2y+1], objxy[2y] (the
 *    same element in every lane) and stores ind[i*69+y] (and 0 over it where
 *    it is >= max_size); calcLikelihoodSum then loads ind[i*69+y] and the
 *    pixel I[ind] (a byte) for each y; likelihood[i] is stored twice and
 *    weights[i] *= exp(likelihood[i]); a shared-memory tree sums the block's
 *    512 weights (a barrier per level) and thread 0 stores partial_sums[block].
 *  sum_kernel: thread 0 of the grid adds partial_sums[0..blocks-1] into [0].
 *  normalize_weights_kernel: thread 0 of each block puts partial_sums[0] in
 *    shared memory; i < N divides weights[i]; thread 0 of the grid writes the
 *    CDF (a serial prefix sum over N weights) and u[0]; thread 0 of each
 *    block puts u[0] in shared memory; i < N stores u[i].
 *  find_index_kernel: i < N loads u[i], then CDF[0], CDF[1], ... until
 *    CDF[x] >= u[i] (the warp loops while any lane searches), gathers
 *    arrayX[index], arrayY[index] and stores xj[i], yj[i]; a barrier.
 * The filter runs on the host as the source computes it, so the pixels read
 * and the indices found are the real ones: the synthetic video (a disk of
 * radius 5 moving by (+1, -2) per frame, background 100, object 228, noise
 * 5*randn added to the bytes), the particles' motion, the likelihoods from
 * the pixels, the weights, the CDF and the linear search.
 * Approximated (documented): random numbers come from our generator, not
 * the source's LCG (its seed[] loads and stores are kept); arithmetic is one
 * instruction per operator, cos/log/sqrt/exp one SFU instruction each and
 * pow(v, 2) one multiply; values the compiler can keep in registers are
 * loaded once (u[i] in the search, arrayX[i]/arrayY[i] in the ind loop),
 * those it must load again after a store through another double pointer
 * (arrayX[i] after weights[i], weights[i] after likelihood[i]) are loaded
 * again.  alu=K makes each arithmetic operator of likelihood_kernel K
 * instructions (the compiled kernel's double-precision pow, division and
 * conversions are several each; its SFU calls stay one).  Arrays (doubles unless said): 0 CDF, 1 u,
 * 2 arrayX, 3 arrayY, 4 xj, 5 yj, 6 weights, 7 likelihood, 8 ind (int), 9 I (bytes), 10 objxy
 * (int), 11 seed (int), 12 partial_sums.
 */
#define PFF_TPB    512u
#define PFF_RADIUS 5
#define PFF_DIAM   (2 * PFF_RADIUS - 1)
#define PFF_R(k)   WC_GEN_REGION(k)

enum { PFF_LIKELIHOOD, PFF_SUM, PFF_NORMALIZE, PFF_FIND, PFF_KERNELS };

typedef struct pff_ctx {
    uint64_t n, frames, rng;
    long iszx, iszy, nfr, k; /* video size; k: the frame being filtered */
    unsigned ones;           /* pixels in the disk (countOnes) */
    uint64_t alu;            /* instructions per arithmetic operator in likelihood_kernel */
    int objxy[2 * PFF_DIAM * PFF_DIAM];
    uint8_t *video;
    double *ax, *ay, *xj, *yj, *w, *cdf, *u;
    uint32_t *ind;   /* n x ones pixel offsets, after the clamp */
    uint32_t *found; /* per particle: the index found, n when none */
} pff_ctx;

/* Box-Muller, as the source's randn (our uniform numbers). */
static double pff_randn(uint64_t *rng)
{
    double u = 1.0 - wc_rng_unit(rng), v = wc_rng_unit(rng);
    return sqrt(-2.0 * log(u)) * cos(2.0 * 3.14159265358979323846 * v);
}

/* The source's videoSequence: a point per frame, dilated by a disk of radius
 * 5, 0 -> 100, 1 -> 228, then 5*randn added to each byte (wrapping). */
static int pff_video(pff_ctx *c)
{
    long X = c->iszx, Y = c->iszy, Z = c->nfr, max = X * Y * Z;
    uint8_t *m = c->video, *d = calloc((size_t)max, 1);
    if (!d) return -1;
    long x0 = (long)(Y / 2.0), y0 = (long)(X / 2.0); /* roundDouble truncates */
    m[x0 * Y * Z + y0 * Z] = 1;
    for (long k = 1; k < Z; k++) {
        long pos = labs(y0 - 2 * (k - 1)) * Y * Z + labs(x0 + (k - 1)) * Z + k;
        m[pos >= max ? 0 : pos] = 1;
    }
    for (long z = 0; z < Z; z++)
        for (long x = 0; x < X; x++)
            for (long y = 0; y < Y; y++) {
                if (m[x * Y * Z + y * Z + z] != 1) continue;
                for (long a = x - PFF_RADIUS < 0 ? 0 : x - PFF_RADIUS;
                     a < (x + PFF_RADIUS > X ? X : x + PFF_RADIUS); a++)
                    for (long b = y - PFF_RADIUS < 0 ? 0 : y - PFF_RADIUS;
                         b < (y + PFF_RADIUS > Y ? Y : y + PFF_RADIUS); b++)
                        if (sqrt((double)((a - x) * (a - x) + (b - y) * (b - y))) < PFF_RADIUS)
                            d[a * Y * Z + b * Z + z] = 1;
            }
    for (long i = 0; i < max; i++)
        m[i] = (uint8_t)((d[i] ? 228 : 100) + (int)(5.0 * pff_randn(&c->rng)));
    free(d);
    return 0;
}

/* The source's strelDisk + getneighbors: offsets (dy, dx) of the disk. */
static void pff_disk(pff_ctx *c)
{
    c->ones = 0;
    for (int x = 0; x < PFF_DIAM; x++)
        for (int y = 0; y < PFF_DIAM; y++) {
            int dx = x - PFF_RADIUS + 1, dy = y - PFF_RADIUS + 1;
            if (sqrt((double)(dx * dx + dy * dy)) >= PFF_RADIUS) continue;
            c->objxy[2 * c->ones] = dy;
            c->objxy[2 * c->ones + 1] = dx;
            c->ones++;
        }
}

/* ind[i*ones+y] before the clamp: abs(indX*IszY*Nfr + indY*Nfr + k). */
static long pff_ind_raw(const pff_ctx *c, uint64_t i, unsigned y)
{
    long ix = (long)(int)c->ax[i] + c->objxy[2 * y + 1], iy = (long)(int)c->ay[i] + c->objxy[2 * y];
    return labs(ix * c->iszy * c->nfr + iy * c->nfr + c->k);
}

/* likelihood_kernel's values: motion, pixel offsets, likelihoods, weights. */
static void pff_likelihood(pff_ctx *c)
{
    long max = c->iszx * c->iszy * c->nfr;
    for (uint64_t i = 0; i < c->n; i++) {
        c->ax[i] = c->xj[i] + 1.0 + 5.0 * pff_randn(&c->rng);
        c->ay[i] = c->yj[i] - 2.0 + 2.0 * pff_randn(&c->rng);
        double lik = 0;
        for (unsigned y = 0; y < c->ones; y++) {
            long v = pff_ind_raw(c, i, y);
            c->ind[i * c->ones + y] = (uint32_t)(v >= max ? 0 : v);
            double p = c->video[c->ind[i * c->ones + y]];
            lik += ((p - 100) * (p - 100) - (p - 228) * (p - 228)) / 50.0;
        }
        c->w[i] = 1.0 / (double)c->n * exp(lik / c->ones);
    }
}

/* sum_kernel + normalize_weights_kernel: normalised weights, CDF, u. */
static void pff_normalize(pff_ctx *c)
{
    double sum = 0;
    for (uint64_t i = 0; i < c->n; i++) sum += c->w[i];
    for (uint64_t i = 0; i < c->n; i++) {
        c->w[i] /= sum;
        c->cdf[i] = c->w[i] + (i ? c->cdf[i - 1] : 0);
    }
    double u1 = wc_rng_unit(&c->rng) / (double)c->n;
    for (uint64_t i = 0; i < c->n; i++) c->u[i] = u1 + (double)i / (double)c->n;
}

/* find_index_kernel: the first x with CDF[x] >= u[i] (n: none, the source
 * then takes N-1 after scanning all N); the resampled positions. */
static void pff_find(pff_ctx *c)
{
    for (uint64_t i = 0; i < c->n; i++) {
        uint64_t x = 0;
        while (x < c->n && c->cdf[x] < c->u[i]) x++;
        c->found[i] = (uint32_t)x;
        uint64_t j = x < c->n ? x : c->n - 1;
        c->xj[i] = c->ax[j];
        c->yj[i] = c->ay[j];
    }
}

static uint64_t pff_first(const wc_gen_warp *w)
{
    return w->block_id * PFF_TPB + w->warp * WC_WARP_SIZE;
}

/* Lanes whose thread index in the block is below s. */
static uint32_t pff_tid_below(const wc_gen_warp *w, uint64_t s)
{
    return wc_gen_mask_below(w->warp * WC_WARP_SIZE, s) & w->live;
}

/* Lane 0 of warp 0 of the block (threadIdx.x == 0), or of block 0 too. */
static uint32_t pff_thread0(const wc_gen_warp *w, int grid)
{
    return w->warp == 0 && (!grid || w->block_id == 0) ? 1u : 0u;
}

/* Lanes whose ind store was >= max_size and is overwritten with 0. */
static uint32_t pff_clamped(const pff_ctx *c, uint64_t i0, uint32_t live, unsigned y)
{
    long max = c->iszx * c->iszy * c->nfr;
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1u) && pff_ind_raw(c, i0 + l, y) >= max) m |= 1u << l;
    return m;
}

static void pff_pixels(const pff_ctx *c, wc_winst *o, uint64_t pc, uint32_t live, uint64_t i0,
                       unsigned y)
{
    wc_gen_mem_list(o, pc, WC_OP_LDG, live, 7, 6, 1);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (live >> l & 1u) o->addr[l] = PFF_R(9) + c->ind[(i0 + l) * c->ones + y];
}

static void pff_sfu(wc_winst *o, uint64_t pc, uint32_t mask)
{
    wc_gen_alu(o, pc, mask, 3, 3, WC_REG_NONE);
    o->op = WC_OP_SFU;
}

/* `count` dependent ALU instructions, counted in w->v[var]. */
#define PFF_ALU(w, o, pc, mask, count, var)                                                        \
    for ((w)->v[var] = 0; (w)->v[var] < (int64_t)(count); (w)->v[var]++)                           \
    WC_CO_EMIT(w, wc_gen_alu(o, pc, mask, 3, 3, WC_REG_NONE))

static int pff_likelihood_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pff_ctx *c = gk->arg;
    uint64_t i0 = pff_first(w), ones = c->ones;
    uint32_t live = wc_gen_mask_below(i0, c->n), all = w->live;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 1, WC_REG_NONE, WC_REG_NONE)); /* i */
    for (w->v[0] = 0; live && w->v[0] < 2; w->v[0]++) { /* xj -> arrayX, yj -> arrayY */
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x10, WC_OP_LDG, live, 2, 1, 8, PFF_R(4 + w->v[0]) + i0 * 8, 8));
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x18, WC_OP_STG, live, 2, 1, 8, PFF_R(2 + w->v[0]) + i0 * 8, 8));
    }
    if (live) WC_CO_EMIT(w, wc_gen_alu(o, 0x20, live, 4, WC_REG_NONE, WC_REG_NONE)); /* 1/N */
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, live, 4, 1, 8, PFF_R(6) + i0 * 8, 8));
    for (w->v[0] = 0; live && w->v[0] < 2; w->v[0]++) { /* arrayX, then arrayY, += d_randn */
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x30, WC_OP_LDG, live, 2, 1, 8, PFF_R(2 + w->v[0]) + i0 * 8, 8));
        for (w->v[1] = 0; w->v[1] < 2; w->v[1]++) { /* d_randu: seed = (A*seed + C) % M */
            WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDG, live, 5, 1, 4, PFF_R(11) + i0 * 4, 4));
            PFF_ALU(w, o, 0x40, live, 3 * c->alu, 2);
            WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_STG, live, 3, 1, 4, PFF_R(11) + i0 * 4, 4));
            PFF_ALU(w, o, 0x50, live, 2 * c->alu, 2); /* / M, fabs */
        }
        for (w->v[1] = 0; w->v[1] < 3; w->v[1]++)
            WC_CO_EMIT(w, pff_sfu(o, 0x58, live)); /* cos log sqrt */
        PFF_ALU(w, o, 0x60, live, 6 * c->alu, 2);  /* 2*pi*v, -2*, *, scale, +offset, + */
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x68, WC_OP_STG, live, 3, 1, 8, PFF_R(2 + w->v[0]) + i0 * 8, 8));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x70));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x78, WC_OP_LDG, live, 2, 1, 8, PFF_R(2) + i0 * 8, 8));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_LDG, live, 3, 1, 8, PFF_R(3) + i0 * 8, 8));
    for (w->v[0] = 0; live && w->v[0] < (int64_t)ones; w->v[0]++) { /* ind[i*ones+y] */
        WC_CO_EMIT(w, wc_gen_mem(o, 0x88, WC_OP_LDG, live, 4, WC_REG_NONE, 4,
                                 PFF_R(10) + (uint64_t)(2 * w->v[0] + 1) * 4, 0));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x90, WC_OP_LDG, live, 5, WC_REG_NONE, 4,
                                 PFF_R(10) + (uint64_t)(2 * w->v[0]) * 4, 0));
        PFF_ALU(w, o, 0x98, live, 9 * c->alu, 2); /* 2 cvt, 2 add, 2 mul, 2 add, abs */
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0xa0, WC_OP_STG, live, 3, 1, 4,
                              PFF_R(8) + (i0 * ones + (uint64_t)w->v[0]) * 4, (int64_t)ones * 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0xa8, live, 6, 3, WC_REG_NONE)); /* >= max_size */
        if (pff_clamped(c, i0, live, (unsigned)w->v[0]))
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0xb0, WC_OP_STG, pff_clamped(c, i0, live, (unsigned)w->v[0]),
                                  WC_REG_NONE, 1, 4, PFF_R(8) + (i0 * ones + (uint64_t)w->v[0]) * 4,
                                  (int64_t)ones * 4));
    }
    for (w->v[0] = 0; live && w->v[0] < (int64_t)ones; w->v[0]++) { /* calcLikelihoodSum */
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0xb8, WC_OP_LDG, live, 6, 1, 4,
                              PFF_R(8) + (i0 * ones + (uint64_t)w->v[0]) * 4, (int64_t)ones * 4));
        WC_CO_EMIT(w, pff_pixels(c, o, 0xc0, live, i0, (unsigned)w->v[0]));
        PFF_ALU(w, o, 0xc8, live, 8 * c->alu, 2); /* cvt, -100, sq, -228, sq, -, /50, += */
    }
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0xd0, WC_OP_STG, live, 3, 1, 8, PFF_R(7) + i0 * 8, 8));
    if (live) WC_CO_EMIT(w, wc_gen_alu(o, 0xd8, live, 3, 3, WC_REG_NONE)); /* / countOnes */
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0xe0, WC_OP_STG, live, 3, 1, 8, PFF_R(7) + i0 * 8, 8));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0xe8, WC_OP_LDG, live, 4, 1, 8, PFF_R(6) + i0 * 8, 8));
    if (live) WC_CO_EMIT(w, pff_sfu(o, 0xf0, live)); /* exp */
    if (live) WC_CO_EMIT(w, wc_gen_alu(o, 0xf8, live, 4, 4, 3));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x100, WC_OP_STG, live, 4, 1, 8, PFF_R(6) + i0 * 8, 8));
    /* buffer[threadIdx.x] = 0, then the weight; the tree sum */
    WC_CO_EMIT(w,
               wc_gen_mem(o, 0x108, WC_OP_STS, all, WC_REG_NONE, WC_REG_NONE, 8, w->warp * 256, 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x110));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x118, WC_OP_LDG, live, 4, 1, 8, PFF_R(6) + i0 * 8, 8));
    if (live)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x120, WC_OP_STS, live, 4, WC_REG_NONE, 8, w->warp * 256, 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x128));
    for (w->v[0] = PFF_TPB / 2; w->v[0] > 0; w->v[0] >>= 1) {
        if (pff_tid_below(w, (uint64_t)w->v[0]))
            WC_CO_EMIT(w, wc_gen_mem(o, 0x130, WC_OP_LDS, pff_tid_below(w, (uint64_t)w->v[0]), 4,
                                     WC_REG_NONE, 8, w->warp * 256, 8));
        if (pff_tid_below(w, (uint64_t)w->v[0]))
            WC_CO_EMIT(w, wc_gen_mem(o, 0x138, WC_OP_LDS, pff_tid_below(w, (uint64_t)w->v[0]), 5,
                                     WC_REG_NONE, 8, (w->warp * 32 + (uint64_t)w->v[0]) * 8, 8));
        if (pff_tid_below(w, (uint64_t)w->v[0]))
            WC_CO_EMIT(w, wc_gen_alu(o, 0x140, pff_tid_below(w, (uint64_t)w->v[0]), 4, 4, 5));
        if (pff_tid_below(w, (uint64_t)w->v[0]))
            WC_CO_EMIT(w, wc_gen_mem(o, 0x148, WC_OP_STS, pff_tid_below(w, (uint64_t)w->v[0]), 4,
                                     WC_REG_NONE, 8, w->warp * 256, 8));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x150));
    }
    if (pff_thread0(w, 0))
        WC_CO_EMIT(w, wc_gen_mem(o, 0x158, WC_OP_LDS, 1u, 4, WC_REG_NONE, 8, 0, 8));
    if (pff_thread0(w, 0))
        WC_CO_EMIT(w, wc_gen_mem(o, 0x160, WC_OP_STG, 1u, 4, 1, 8, PFF_R(12) + w->block_id * 8, 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x168));
    WC_CO_END(w);
}

static int pff_sum_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pff_ctx *c = gk->arg;
    uint32_t t0 = pff_thread0(w, 1);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, w->live, 1, WC_REG_NONE, WC_REG_NONE)); /* i */
    if (t0) PFF_ALU(w, o, 0x10, 1u, 3, 2); /* num_blocks = ceil(N / 512) */
    for (w->v[0] = 0; t0 && w->v[0] < (int64_t)gk->k.grid.x; w->v[0]++) {
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0x18, WC_OP_LDG, 1u, 4, 1, 8, PFF_R(12) + (uint64_t)w->v[0] * 8, 8));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, 1u, 3, 3, 4));
    }
    if (t0) WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, 1u, 3, 1, 8, PFF_R(12), 8));
    (void)c;
    WC_CO_END(w);
}

static int pff_normalize_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pff_ctx *c = gk->arg;
    uint64_t i0 = pff_first(w);
    uint32_t live = wc_gen_mask_below(i0, c->n), t0 = pff_thread0(w, 0), g0 = pff_thread0(w, 1);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, w->live, 1, WC_REG_NONE, WC_REG_NONE)); /* i */
    if (t0) WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, 1u, 2, 1, 8, PFF_R(12), 8));
    if (t0) WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, 1u, 2, WC_REG_NONE, 8, 8, 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDS, live, 2, WC_REG_NONE, 8, 8, 0));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDG, live, 3, 1, 8, PFF_R(6) + i0 * 8, 8));
    if (live) WC_CO_EMIT(w, wc_gen_alu(o, 0x38, live, 3, 3, 2));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_STG, live, 3, 1, 8, PFF_R(6) + i0 * 8, 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
    for (w->v[0] = 0; g0 && w->v[0] < (int64_t)c->n; w->v[0]++) { /* cdfCalc, thread 0 */
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0x50, WC_OP_LDG, 1u, 3, 1, 8, PFF_R(6) + (uint64_t)w->v[0] * 8, 8));
        if (w->v[0]) WC_CO_EMIT(w, wc_gen_alu(o, 0x58, 1u, 4, 4, 3));
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0x60, WC_OP_STG, 1u, 4, 1, 8, PFF_R(0) + (uint64_t)w->v[0] * 8, 8));
    }
    if (g0) WC_CO_EMIT(w, wc_gen_mem(o, 0x68, WC_OP_LDG, 1u, 5, 1, 4, PFF_R(11), 4)); /* d_randu */
    if (g0) PFF_ALU(w, o, 0x70, 1u, 3, 2);
    if (g0) WC_CO_EMIT(w, wc_gen_mem(o, 0x78, WC_OP_STG, 1u, 3, 1, 4, PFF_R(11), 4));
    if (g0) PFF_ALU(w, o, 0x80, 1u, 4, 2); /* / M, fabs, 1/N, * */
    if (g0) WC_CO_EMIT(w, wc_gen_mem(o, 0x88, WC_OP_STG, 1u, 3, 1, 8, PFF_R(1), 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x90));
    if (t0) WC_CO_EMIT(w, wc_gen_mem(o, 0x98, WC_OP_LDG, 1u, 2, 1, 8, PFF_R(1), 8));
    if (t0) WC_CO_EMIT(w, wc_gen_mem(o, 0xa0, WC_OP_STS, 1u, 2, WC_REG_NONE, 8, 0, 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0xa8));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0xb0, WC_OP_LDS, live, 2, WC_REG_NONE, 8, 0, 0));
    if (live) PFF_ALU(w, o, 0xb8, live, 3, 2); /* i / N, + u1 */
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0xc0, WC_OP_STG, live, 3, 1, 8, PFF_R(1) + i0 * 8, 8));
    WC_CO_END(w);
}

/* Lanes still searching at step x (their scan is longer than x). */
static uint32_t pff_searching(const pff_ctx *c, uint64_t i0, uint32_t live, int64_t x)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1u) && (int64_t)c->found[i0 + l] >= x) m |= 1u << l;
    return m;
}

static void pff_gather(const pff_ctx *c, wc_winst *o, uint64_t pc, uint32_t live, unsigned reg,
                       uint64_t i0, uint64_t arr)
{
    wc_gen_mem_list(o, pc, WC_OP_LDG, live, reg, 2, 8);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (live >> l & 1u) {
            uint64_t j = c->found[i0 + l] < c->n ? c->found[i0 + l] : c->n - 1;
            o->addr[l] = arr + j * 8;
        }
}

static int pff_find_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pff_ctx *c = gk->arg;
    uint64_t i0 = pff_first(w);
    uint32_t live = wc_gen_mask_below(i0, c->n);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, w->live, 1, WC_REG_NONE, WC_REG_NONE)); /* i */
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 2, 1, 8, PFF_R(1) + i0 * 8, 8));
    /* a lane whose search finds nothing loads all N elements */
    for (w->v[0] = 0; live && pff_searching(c, i0, live, w->v[0]) && w->v[0] < (int64_t)c->n;
         w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, pff_searching(c, i0, live, w->v[0]), 3,
                                 WC_REG_NONE, 8, PFF_R(0) + (uint64_t)w->v[0] * 8, 0));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, pff_searching(c, i0, live, w->v[0]), WC_REG_NONE, 3, 2));
    }
    if (live) WC_CO_EMIT(w, pff_gather(c, o, 0x28, live, 4, i0, PFF_R(2)));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STG, live, 4, 2, 8, PFF_R(4) + i0 * 8, 8));
    if (live) WC_CO_EMIT(w, pff_gather(c, o, 0x38, live, 5, i0, PFF_R(3)));
    if (live) WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_STG, live, 5, 2, 8, PFF_R(5) + i0 * 8, 8));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
    WC_CO_END(w);
}

static int pff_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    static const char *const names[PFF_KERNELS] = {"likelihood_kernel", "sum_kernel",
                                                   "normalize_weights_kernel", "find_index_kernel"};
    static int (*const nexts[PFF_KERNELS])(const wc_gen_kernel *, wc_gen_warp *, wc_winst *) = {
        pff_likelihood_next, pff_sum_next, pff_normalize_next, pff_find_next};
    pff_ctx *c = ctx;
    unsigned kind = idx % PFF_KERNELS;
    if (idx / PFF_KERNELS + 1 >= c->frames) return 0;
    c->k = (long)(idx / PFF_KERNELS + 1);
    if (kind == PFF_LIKELIHOOD) pff_likelihood(c);
    if (kind == PFF_NORMALIZE) pff_normalize(c);
    if (kind == PFF_FIND) pff_find(c);
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "%s", names[kind]);
    out->k.block = (wc_dim3){PFF_TPB, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->n + PFF_TPB - 1) / PFF_TPB), 1, 1};
    out->k.shmem_bytes = kind == PFF_LIKELIHOOD ? PFF_TPB * 8 : kind == PFF_NORMALIZE ? 16 : 0;
    out->k.regs_per_thread = 16;
    out->next = nexts[kind];
    return 1;
}

static void pff_destroy(void *ctx)
{
    pff_ctx *c = ctx;
    free(c->video);
    free(c->ax);
    free(c->ind);
    free(c->found);
    free(c);
}

/* The filter's state for n particles over `frames` frames of a 128 x 128
 * video (NULL: out of memory). */
static pff_ctx *pff_create(uint64_t n, uint64_t frames, uint64_t seed)
{
    pff_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->n = n;
    c->frames = frames;
    c->iszx = c->iszy = 128;
    c->nfr = (long)frames;
    c->rng = wc_rng_seed(seed ^ 0x706666ull);
    pff_disk(c);
    c->video = calloc((size_t)(c->iszx * c->iszy * c->nfr), 1);
    c->ax = malloc(7 * n * sizeof *c->ax);
    c->ind = malloc(n * c->ones * sizeof *c->ind);
    c->found = malloc(n * sizeof *c->found);
    if (!c->video || !c->ax || !c->ind || !c->found || pff_video(c) < 0) {
        pff_destroy(c);
        return NULL;
    }
    c->ay = c->ax + n;
    c->xj = c->ay + n;
    c->yj = c->xj + n;
    c->w = c->yj + n;
    c->cdf = c->w + n;
    c->u = c->cdf + n;
    for (uint64_t i = 0; i < n; i++) { /* xe, ye: roundDouble(IszY/2), roundDouble(IszX/2) */
        c->xj[i] = (double)(long)(c->iszy / 2.0);
        c->yj[i] = (double)(long)(c->iszx / 2.0);
    }
    return c;
}

/* One frame of the filter as the naive version's host code runs it (the same
 * steps as the float version's kernels); index[i]: the index its kernel
 * finds (N-1 when the search finds none). */
static void pff_filter_frame(pff_ctx *f, long k, uint32_t *index)
{
    f->k = k;
    pff_likelihood(f);
    pff_normalize(f);
    pff_find(f);
    for (uint64_t i = 0; i < f->n; i++)
        index[i] = f->found[i] < f->n ? f->found[i] : (uint32_t)(f->n - 1);
}

static wc_source *open_particlefilter_float(uint64_t n, uint64_t frames, uint64_t alu,
                                            uint64_t seed, wc_err *err)
{
    pff_ctx *c = pff_create(n, frames, seed);
    if (!c) {
        wc_errf(err, "particlefilter: out of memory");
        return NULL;
    }
    c->alu = alu;
    wc_gen_program prog = {.ctx = c, .kernel = pff_kernel, .destroy = pff_destroy};
    return wc_gen_source_create(&prog, err);
}

static wc_source *open_particlefilter(wc_params *p, uint64_t seed, wc_err *err)
{
    pfil_ctx *c = calloc(1, sizeof *c);
    uint64_t version, video, alu;
    if (!c) {
        wc_errf(err, "particlefilter: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "particles", 1000, 1, 1u << 24, &c->n, err) < 0 ||
        wc_params_u64(p, "frames", 10, 2, 100000, &c->frames, err) < 0 ||
        wc_params_u64(p, "float", 0, 0, 1, &version, err) < 0 ||
        wc_params_u64(p, "video", 0, 0, 1, &video, err) < 0 ||
        wc_params_u64(p, "alu", 1, 1, 1000, &alu, err) < 0) {
        free(c);
        return NULL;
    }
    if (version ? video : alu != 1) { /* each applies to one version only */
        free(c);
        wc_errf(err, "workload %s: %s", p->workload,
                version ? "video=1 is the naive version's (float=1 always runs the filter)"
                        : "alu applies to float=1 only");
        return NULL;
    }
    if (version) { /* the float version: its own program */
        uint64_t n = c->n, frames = c->frames;
        free(c);
        return open_particlefilter_float(n, frames, alu, seed, err);
    }
    c->index = calloc(c->n, sizeof *c->index);
    if (video) c->filter = pff_create(c->n, c->frames, seed);
    if (!c->index || (video && !c->filter)) {
        if (c->filter) pff_destroy(c->filter);
        free(c->index);
        free(c);
        wc_errf(err, "particlefilter: out of memory");
        return NULL;
    }
    c->rng = wc_rng_seed(seed ^ 0x7066ull);
    wc_gen_program prog = {.ctx = c, .kernel = pfil_kernel, .destroy = pfil_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_particlefilter = {
    .name = "rodinia/particlefilter",
    .suite = "rodinia",
    .kernels = "kernel x (frames-1); float=1: 4 kernels x (frames-1)",
    .size = "particles=1000 frames=10 (128x128 video)",
    .classes = "000:CLN 001:CNF",
    .help = "Rodinia particlefilter (naive kernel; float=1: the float version, the whole filter "
            "on the GPU); particles, frames, float, "
            "video (naive: weights from the host filter's likelihoods), alu (float: instructions "
            "per arithmetic operator of likelihood_kernel)",
    .open = open_particlefilter,
};
WC_PLUGIN(workload, wc_wl_rodinia_particlefilter, 410);
