/*
 * kmeans.c - Rodinia kmeans (CUDA), default input kdd_cup (494,020 points x
 * 34 features, 5 clusters), as an address generator.  Facts from
 * ../shared/specs/workloads.md (Rodinia, kmeans).
 *
 * Launches: invert_mapping<<<P*P, 256>>> once (P = floor(sqrt(ceil(n/256)))+1,
 * 44 for kdd_cup, so 1936 blocks), then kmeansPoint<<<(P,P), 256>>> once per
 * clustering iteration.  The address stream of both kernels does not depend on
 * the data, only the number of iterations does: `iterations=K` launches
 * kmeansPoint K times (default 2, documented choice); `iterations=0` really
 * clusters seeded points (5 Gaussian blobs) and iterates, as Rodinia does,
 * until no membership changes (at most 500 + 1 launches).
 *
 * Arrays: region 0 `input` (row-major n x nf), 1 `feature_flipped` (n x nf
 * column-major, also the texture kmeansPoint reads), 2 `membership` (int).
 * Registers: r1 loaded value, r2 address, r3 distance, r4 min distance.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define KM_INPUT   WC_GEN_REGION(0)
#define KM_FLIPPED WC_GEN_REGION(1)
#define KM_MEMBER  WC_GEN_REGION(2)
#define KM_MAXIT   500

typedef struct kmeans_ctx {
    uint64_t n, nf, nk, iterations, perdim;
    uint64_t seed;
    /* Only for iterations=0 (run to convergence). */
    float *pts, *centres;
    int32_t *member;
    uint64_t launched_points; /* kmeansPoint launches produced so far */
    bool converged;
} kmeans_ctx;

/* invert_mapping: for i < nf: r1 = input[pid*nf+i]; output[pid + n*i] = r1. */
static int invert_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const kmeans_ctx *c = gk->arg;
    uint64_t pid0 = w->block_id * 256 + w->warp * WC_WARP_SIZE;
    uint32_t mask = wc_gen_mask_below(pid0, c->n);
    WC_CO_BEGIN(w);
    if (!mask) break;
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, mask, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < (int64_t)c->nf; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, mask, 1, 2, 4,
                                 KM_INPUT + (pid0 * c->nf + (uint64_t)w->v[0]) * 4,
                                 (int64_t)c->nf * 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STG, mask, 1, 2, 4,
                                 KM_FLIPPED + (pid0 + c->n * (uint64_t)w->v[0]) * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, mask, 2, 2, WC_REG_NONE));
    }
    WC_CO_END(w);
}

/* kmeansPoint: for each cluster, for each feature: load, subtract the centre
 * (constant memory), multiply-add; then compare; store membership. */
static int point_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const kmeans_ctx *c = gk->arg;
    uint64_t lin = (uint64_t)w->bid.y * gk->k.grid.x + w->bid.x;
    uint64_t pid0 = lin * 256 + w->warp * WC_WARP_SIZE;
    uint32_t mask = wc_gen_mask_below(pid0, c->n);
    WC_CO_BEGIN(w);
    if (!mask) break;
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, mask, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < (int64_t)c->nk; w->v[0]++) {
        for (w->v[1] = 0; w->v[1] < (int64_t)c->nf; w->v[1]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, mask, 1, 2, 4,
                                     KM_FLIPPED + ((uint64_t)w->v[1] * c->n + pid0) * 4, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x18, mask, 1, 1, WC_REG_NONE));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x20, mask, 3, 1, 3));
        }
        WC_CO_EMIT(w, wc_gen_alu(o, 0x28, mask, 4, 3, 4));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STG, mask, 4, 2, 4, KM_MEMBER + pid0 * 4, 4));
    WC_CO_END(w);
}

/* ---- really clustering (iterations=0) --------------------------------- */

static int kmeans_make_data(kmeans_ctx *c, wc_err *err)
{
    c->pts = malloc(c->n * c->nf * sizeof *c->pts);
    c->centres = malloc(c->nk * c->nf * sizeof *c->centres);
    c->member = malloc(c->n * sizeof *c->member);
    float *blob = malloc(c->nk * c->nf * sizeof *blob);
    if (!c->pts || !c->centres || !c->member || !blob) {
        free(blob);
        return wc_errf(err, "kmeans: out of memory");
    }
    uint64_t r = wc_rng_seed(c->seed ^ 0x6b6d65616e73ull);
    for (uint64_t i = 0; i < c->nk * c->nf; i++) blob[i] = (float)wc_rng_unit(&r);
    for (uint64_t p = 0; p < c->n; p++) {
        uint64_t b = wc_rng_below(&r, c->nk);
        for (uint64_t f = 0; f < c->nf; f++)
            c->pts[p * c->nf + f] = blob[b * c->nf + f] + (float)(0.3 * (wc_rng_unit(&r) - 0.5));
        c->member[p] = -1;
    }
    for (uint64_t k = 0; k < c->nk; k++) { /* Rodinia starts from random points */
        uint64_t p = wc_rng_below(&r, c->n);
        memcpy(&c->centres[k * c->nf], &c->pts[p * c->nf], c->nf * sizeof(float));
    }
    free(blob);
    return 0;
}

/* One kmeansPoint launch plus the host's centre update; returns the number of
 * memberships that changed (Rodinia's delta). */
static uint64_t kmeans_iterate(kmeans_ctx *c)
{
    uint64_t delta = 0;
    double *sum = calloc(c->nk * (c->nf + 1), sizeof *sum);
    for (uint64_t p = 0; p < c->n; p++) {
        float best = FLT_MAX;
        int32_t idx = 0;
        for (uint64_t k = 0; k < c->nk; k++) {
            float d = 0;
            for (uint64_t f = 0; f < c->nf; f++) {
                float x = c->pts[p * c->nf + f] - c->centres[k * c->nf + f];
                d += x * x;
            }
            if (d < best) {
                best = d;
                idx = (int32_t)k;
            }
        }
        if (c->member[p] != idx) delta++;
        c->member[p] = idx;
        if (sum) {
            for (uint64_t f = 0; f < c->nf; f++)
                sum[idx * (c->nf + 1) + f] += c->pts[p * c->nf + f];
            sum[idx * (c->nf + 1) + c->nf] += 1;
        }
    }
    for (uint64_t k = 0; sum && k < c->nk; k++) {
        double cnt = sum[k * (c->nf + 1) + c->nf];
        if (cnt > 0)
            for (uint64_t f = 0; f < c->nf; f++)
                c->centres[k * c->nf + f] = (float)(sum[k * (c->nf + 1) + f] / cnt);
    }
    free(sum);
    return delta;
}

static int kmeans_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    kmeans_ctx *c = ctx;
    out->arg = c;
    out->k.block = (wc_dim3){256, 1, 1};
    out->k.regs_per_thread = 16;
    if (idx == 0) {
        snprintf(out->k.name, sizeof out->k.name, "invert_mapping");
        out->k.grid = (wc_dim3){(uint32_t)(c->perdim * c->perdim), 1, 1};
        out->next = invert_next;
        return 1;
    }
    if (c->iterations) {
        if (idx > c->iterations) return 0;
    } else {
        /* The previous kmeansPoint launch's outcome decides whether to go on. */
        if (c->converged) return 0;
        if (c->launched_points > 0 && c->launched_points == idx - 1u) {
            if (kmeans_iterate(c) == 0 || c->launched_points > KM_MAXIT) {
                c->converged = true;
                return 0;
            }
        }
    }
    c->launched_points = idx;
    snprintf(out->k.name, sizeof out->k.name, "kmeansPoint");
    out->k.grid = (wc_dim3){(uint32_t)c->perdim, (uint32_t)c->perdim, 1};
    out->next = point_next;
    return 1;
}

static void kmeans_destroy(void *ctx)
{
    kmeans_ctx *c = ctx;
    free(c->pts);
    free(c->centres);
    free(c->member);
    free(c);
}

static wc_source *open_kmeans(wc_params *p, uint64_t seed, wc_err *err)
{
    kmeans_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "kmeans: out of memory");
        return NULL;
    }
    c->seed = seed;
    if (wc_params_u64(p, "n", 494020, 1, 1u << 24, &c->n, err) < 0 ||
        wc_params_u64(p, "features", 34, 1, 256, &c->nf, err) < 0 ||
        wc_params_u64(p, "clusters", 5, 1, 64, &c->nk, err) < 0 ||
        wc_params_u64(p, "iterations", 2, 0, KM_MAXIT, &c->iterations, err) < 0) {
        kmeans_destroy(c);
        return NULL;
    }
    uint64_t blocks = (c->n + 255) / 256, s = 0;
    while ((s + 1) * (s + 1) <= blocks) s++;
    c->perdim = s + 1;
    if (c->iterations == 0 && kmeans_make_data(c, err) < 0) {
        kmeans_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = kmeans_kernel, .destroy = kmeans_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_kmeans = {
    .name = "rodinia/kmeans",
    .suite = "rodinia",
    .kernels = "invert_mapping, kmeansPoint x iterations",
    .size = "n=494020 features=34 clusters=5 iterations=2 (kdd_cup)",
    .classes = "000:CLN 002:thrashing",
    .help = "Rodinia kmeans; n, features, clusters, iterations (0 = cluster seeded points "
            "until no membership changes)",
    .open = open_kmeans,
};
WC_PLUGIN(workload, wc_wl_rodinia_kmeans, 300);
