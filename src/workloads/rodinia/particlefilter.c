/*
 * particlefilter.c - Rodinia particlefilter, naive CUDA version
 * (particlefilter_naive -x 128 -y 128 -z 10 -np 1000), as an address
 * generator.  Facts from ../shared/specs/workloads.md (Rodinia).
 *
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
 * performed on these values.
 * Arrays: 0 CDF, 1 u, 2 arrayX, 3 arrayY, 4 xj, 5 yj.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

typedef struct pfil_ctx {
    uint64_t n, frames, rng;
    uint32_t *index; /* this launch's found index per particle */
} pfil_ctx;

static void pfil_frame(pfil_ctx *c)
{
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
    free(c->index);
    free(c);
}

static wc_source *open_particlefilter(wc_params *p, uint64_t seed, wc_err *err)
{
    pfil_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "particlefilter: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "particles", 1000, 1, 1u << 24, &c->n, err) < 0 ||
        wc_params_u64(p, "frames", 10, 2, 100000, &c->frames, err) < 0) {
        free(c);
        return NULL;
    }
    c->index = calloc(c->n, sizeof *c->index);
    if (!c->index) {
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
    .kernels = "kernel x (frames-1)",
    .size = "particles=1000 frames=10 (128x128 video)",
    .classes = "000:CLN 001:CNF",
    .help = "Rodinia particlefilter (naive kernel); particles, frames",
    .open = open_particlefilter,
};
WC_PLUGIN(workload, wc_wl_rodinia_particlefilter, 410);
