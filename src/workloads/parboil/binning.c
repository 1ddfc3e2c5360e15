/*
 * binning.c - Parboil's atomic-binning workloads as address generators over
 * seeded inputs: histo and mri-gridding.  Facts from
 * ../shared/specs/workloads.md (Parboil).  Both are approximations of the
 * originals' kernel structure (documented in docs/workloads-irregular.md);
 * the data-dependent parts (bins hit, atomics, reorder, per-bin sample
 * counts) are computed from the seeded data.
 *
 * histo (image 996 x 1040, 4096 bins, 20 iterations): per iteration
 *   histo_prescan<<<64, 512>>>: grid-stride loads of the image, a shared
 *     reduction, thread 0 atomics on ranges[0], ranges[1];
 *   histo_intermediates<<<ceil(n/512), 512>>>: load pixel, compute its bin,
 *     store the 4-byte mapping;
 *   histo_main<<<ceil(n/512), 512>>>: load mapping, atomic increment of
 *     histo[bin] (the per-pixel `if (histo[v] < 255) histo[v]++`);
 *   histo_final<<<ceil(bins/512), 512>>>: load the 32-bit bin, store the
 *     saturated 8-bit result.
 * Pixels: 70% from a narrow Gaussian around bins/2 (sd bins/64), 30% uniform
 * (the original image is a few hot bins over a sparse background).
 * Arrays: 0 image, 1 ranges, 2 mappings, 3 histo (32-bit), 4 histo8.
 *
 * mri-gridding (default 262144 samples, grid 64^3, bins of 4^3 points):
 *   binning<<<ceil(N/512), 512>>>: load sample x, y, z (24-B sample struct),
 *     atomic add on binCount[bin] (its result is the sample's slot), store
 *     idxKey[i], idxValue[i];
 *   scan<<<ceil(B/512), 512>>>: binStart = exclusive prefix of binCount
 *     (one pass here; the original scans in levels);
 *   reorder<<<ceil(N/512), 512>>>: load idx[i] (the i-th sample in bin
 *     order), gather the 6 fields of samples[idx[i]], store sorted[i];
 *   gridding<<<B, 64>>>: a block is one bin (64 grid points); for each of the
 *     27 neighbour bins (inside the grid) load binStart[b], binStart[b+1]
 *     (broadcast), load its samples in tiles of 64 (5 fields, then barrier,
 *     64 x (shared load + ALU)), then store the 8-byte grid point.
 * Samples: k-space density falls off from the centre (Gaussian, sd G/6).
 * Arrays: 0 samples, 1 binCount, 2 idxKey, 3 idxValue, 4 binStart, 5 idx,
 * 6 sorted, 7 grid.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

/* Standard normal from two uniforms (Box-Muller). */
static double gauss(uint64_t *r)
{
    double u = wc_rng_unit(r), v = wc_rng_unit(r);
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* ---- histo ----------------------------------------------------------------- */

typedef struct hi_ctx {
    uint64_t w, h, n, bins, iterations;
    uint32_t *bin; /* per pixel */
} hi_ctx;

static void hi_destroy(void *ctx)
{
    hi_ctx *c = ctx;
    free(c->bin);
    free(c);
}

static int hi_prescan_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const hi_ctx *c = gk->arg;
    uint64_t t0 = w->block_id * 512 + w->warp * 32, stride = 64 * 512;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; t0 + (uint64_t)w->v[0] * stride < c->n; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG,
                                 wc_gen_mask_below(t0 + (uint64_t)w->v[0] * stride, c->n), 3, 2, 4,
                                 WC_GEN_REGION(0) + (t0 + (uint64_t)w->v[0] * stride) * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x18, 0xffffffffu, 4, 3, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, 0xffffffffu, 5, 3, 5));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STS, 0xffffffffu, 4, WC_REG_NONE, 4, 0, 4));
    for (w->v[0] = 0; w->v[0] < 9; w->v[0]++) { /* log2(512) reduction steps */
        WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x38, 0xffffffffu, 4, 4, 5));
    }
    if (w->warp != 0) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_ATOM, 1u, 4, WC_REG_NONE, 4, WC_GEN_REGION(1), 0));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_ATOM, 1u, 5, WC_REG_NONE, 4, WC_GEN_REGION(1) + 4, 0));
    WC_CO_END(w);
}

static int hi_pixel_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    /* intermediates (name starts with 'histo_i') or main */
    const hi_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(i0, c->n);
    bool inter = gk->k.name[6] == 'i';
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    if (inter) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3, 2, 4, WC_GEN_REGION(0) + i0 * 4, 4));
        for (w->v[0] = 0; w->v[0] < 4; w->v[0]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x18, m, 3, 3, WC_REG_NONE));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, m, 3, 2, 4, WC_GEN_REGION(2) + i0 * 4, 4));
    } else {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDG, m, 3, 2, 4, WC_GEN_REGION(2) + i0 * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x30, m, 4, 3, WC_REG_NONE));
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x38, WC_OP_ATOM, m, WC_REG_NONE, 4, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (m >> l & 1u) o->addr[l] = WC_GEN_REGION(3) + c->bin[i0 + l] * 4ull;
        });
    }
    WC_CO_END(w);
}

static int hi_final_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const hi_ctx *c = gk->arg;
    uint64_t b0 = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(b0, c->bins);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3, 2, 4, WC_GEN_REGION(3) + b0 * 4, 4));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x18, m, 3, 3, WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, m, 3, 2, 1, WC_GEN_REGION(4) + b0, 1));
    WC_CO_END(w);
}

static int hi_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    static const char *const names[4] = {"histo_prescan_kernel", "histo_intermediates_kernel",
                                         "histo_main_kernel", "histo_final_kernel"};
    hi_ctx *c = ctx;
    if (idx >= 4 * c->iterations) return 0;
    unsigned s = idx % 4;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "%s", names[s]);
    out->k.block = (wc_dim3){512, 1, 1};
    out->k.regs_per_thread = 16;
    uint64_t blocks = s == 0 ? 64 : s == 3 ? (c->bins + 511) / 512 : (c->n + 511) / 512;
    out->k.grid = (wc_dim3){(uint32_t)blocks, 1, 1};
    out->k.shmem_bytes = s == 0 ? 2 * 512 * 4 : 0;
    out->next = s == 0 ? hi_prescan_next : s == 3 ? hi_final_next : hi_pixel_next;
    return 1;
}

static wc_source *open_histo(wc_params *p, uint64_t seed, wc_err *err)
{
    hi_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "histo: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "width", 996, 1, 1u << 15, &c->w, err) < 0 ||
        wc_params_u64(p, "height", 1040, 1, 1u << 15, &c->h, err) < 0 ||
        wc_params_u64(p, "bins", 4096, 64, 1u << 24, &c->bins, err) < 0 ||
        wc_params_u64(p, "iterations", 20, 1, 100000, &c->iterations, err) < 0) {
        free(c);
        return NULL;
    }
    c->n = c->w * c->h;
    c->bin = malloc(c->n * sizeof *c->bin);
    if (!c->bin) {
        hi_destroy(c);
        wc_errf(err, "histo: out of memory");
        return NULL;
    }
    uint64_t r = wc_rng_seed(seed ^ 0x686973ull);
    for (uint64_t i = 0; i < c->n; i++) {
        double v;
        if (wc_rng_below(&r, 10) < 7)
            v = (double)c->bins / 2 + gauss(&r) * (double)c->bins / 64;
        else
            v = wc_rng_unit(&r) * (double)c->bins;
        if (v < 0) v = 0;
        if (v > (double)(c->bins - 1)) v = (double)(c->bins - 1);
        c->bin[i] = (uint32_t)v;
    }
    wc_gen_program prog = {.ctx = c, .kernel = hi_kernel, .destroy = hi_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_parboil_histo = {
    .name = "parboil/histo",
    .suite = "parboil",
    .kernels = "(histo_prescan, histo_intermediates, histo_main, histo_final) x iterations",
    .size = "width=996 height=1040 bins=4096 iterations=20",
    .classes = "000:CLP",
    .help = "Parboil histo (approximated kernels, seeded image); width, height, bins, iterations",
    .open = open_histo,
};
WC_PLUGIN(workload, wc_wl_parboil_histo, 490);

/* ---- mri-gridding ------------------------------------------------------------- */

typedef struct mg_ctx {
    uint64_t n, g, bside, nbins;
    uint32_t *key, *slot, *start, *idx; /* start has nbins+1 entries */
} mg_ctx;

static void mg_destroy(void *ctx)
{
    mg_ctx *c = ctx;
    free(c->key);
    free(c->slot);
    free(c->start);
    free(c->idx);
    free(c);
}

#define MG_SAMPLES WC_GEN_REGION(0)
#define MG_COUNT   WC_GEN_REGION(1)
#define MG_KEY     WC_GEN_REGION(2)
#define MG_VALUE   WC_GEN_REGION(3)
#define MG_START   WC_GEN_REGION(4)
#define MG_IDX     WC_GEN_REGION(5)
#define MG_SORTED  WC_GEN_REGION(6)
#define MG_GRID    WC_GEN_REGION(7)

static int mg_binning_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const mg_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(i0, c->n);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    for (w->v[0] = 0; w->v[0] < 3; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3 + (unsigned)w->v[0], 2, 4,
                                 MG_SAMPLES + i0 * 24 + (uint64_t)w->v[0] * 4, 24));
    for (w->v[0] = 0; w->v[0] < 6; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_alu(o, 0x18, m, 6, 3 + (unsigned)(w->v[0] % 3), 6));
    WC_CO_EMIT(w, {
        wc_gen_mem_list(o, 0x20, WC_OP_ATOM, m, 7, 6, 4);
        for (unsigned l = 0; l < WC_WARP_SIZE; l++)
            if (m >> l & 1u) o->addr[l] = MG_COUNT + c->key[i0 + l] * 4ull;
    });
    WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, m, 6, 2, 4, MG_KEY + i0 * 4, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STG, m, 7, 2, 4, MG_VALUE + i0 * 4, 4));
    WC_CO_END(w);
}

static int mg_scan_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const mg_ctx *c = gk->arg;
    uint64_t b0 = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(b0, c->nbins);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (m) WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3, 2, 4, MG_COUNT + b0 * 4, 4));
    if (m) WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, m, 3, WC_REG_NONE, 4, 0, 4));
    for (w->v[0] = 0; w->v[0] < 9; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x28, 0xffffffffu, 3, 3, 4));
    }
    if (m) WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STG, m, 3, 2, 4, MG_START + b0 * 4, 4));
    WC_CO_END(w);
}

static int mg_reorder_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const mg_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(i0, c->n);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3, 2, 4, MG_IDX + i0 * 4, 4));
    for (w->v[0] = 0; w->v[0] < 6; w->v[0]++) {
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x18, WC_OP_LDG, m, 4, 3, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (m >> l & 1u)
                    o->addr[l] = MG_SAMPLES + c->idx[i0 + l] * 24ull + (uint64_t)w->v[0] * 4;
        });
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, m, 4, 2, 4,
                                 MG_SORTED + i0 * 24 + (uint64_t)w->v[0] * 4, 24));
    }
    WC_CO_END(w);
}

/* Neighbour bin number v (0..26) of bin b, or -1 outside the grid. */
static int64_t mg_nbr(const mg_ctx *c, uint64_t b, int64_t v)
{
    int64_t s = (int64_t)c->bside;
    int64_t x = (int64_t)(b % c->bside) + v % 3 - 1,
            y = (int64_t)(b / c->bside % c->bside) + v / 3 % 3 - 1,
            z = (int64_t)(b / (c->bside * c->bside)) + v / 9 - 1;
    if (x < 0 || y < 0 || z < 0 || x >= s || y >= s || z >= s) return -1;
    return (z * s + y) * s + x;
}

static int mg_grid_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const mg_ctx *c = gk->arg;
    uint64_t b = w->block_id;
    const uint32_t all = 0xffffffffu;
    int64_t nb = w->v[0] < 27 ? mg_nbr(c, b, w->v[0]) : -1;
    uint64_t s0 = nb >= 0 ? c->start[nb] : 0, s1 = nb >= 0 ? c->start[nb + 1] : 0;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 27; w->v[0]++) {
        if (mg_nbr(c, b, w->v[0]) < 0) continue;
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, all, 3, WC_REG_NONE, 4,
                                 MG_START + (uint64_t)mg_nbr(c, b, w->v[0]) * 4, 0));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, all, 4, WC_REG_NONE, 4,
                                 MG_START + (uint64_t)mg_nbr(c, b, w->v[0]) * 4 + 4, 0));
        for (w->v[1] = (int64_t)s0; w->v[1] < (int64_t)s1; w->v[1] += 64) {
            /* warp w loads samples v[1] + 32*warp + lane of this tile */
            w->v[3] = (int64_t)wc_gen_mask_below((uint64_t)w->v[1] + w->warp * 32u, s1);
            if (w->v[3])
                for (w->v[2] = 0; w->v[2] < 5; w->v[2]++)
                    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_LDG, (uint32_t)w->v[3], 5, 2, 4,
                                             MG_SORTED + ((uint64_t)w->v[1] + w->warp * 32u) * 24 +
                                                 (uint64_t)w->v[2] * 4,
                                             24));
            if (w->v[3])
                WC_CO_EMIT(
                    w, wc_gen_mem(o, 0x28, WC_OP_STS, (uint32_t)w->v[3], 5, WC_REG_NONE, 4, 0, 4));
            WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
            for (w->v[2] = 0; w->v[2] < (int64_t)s1 - w->v[1] && w->v[2] < 64; w->v[2]++) {
                WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDS, all, 6, WC_REG_NONE, 16,
                                         (uint64_t)w->v[2] * 16, 0));
                WC_CO_EMIT(w, wc_gen_alu(o, 0x40, all, 7, 6, 7));
            }
            WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
        }
    }
    WC_CO_EMIT(w, {
        /* grid point of thread t: (4bx + t%4, 4by + t/4%4, 4bz + t/16) */
        wc_gen_mem_list(o, 0x50, WC_OP_STG, all, 7, 2, 8);
        uint64_t bx = b % c->bside, by = b / c->bside % c->bside, bz = b / (c->bside * c->bside);
        for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
            uint64_t t = w->warp * 32u + l;
            uint64_t x = 4 * bx + t % 4, y = 4 * by + t / 4 % 4, z = 4 * bz + t / 16;
            o->addr[l] = MG_GRID + ((z * c->g + y) * c->g + x) * 8;
        }
    });
    WC_CO_END(w);
}

static int mg_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    static const char *const names[4] = {"binning_kernel", "scan_kernel", "reorder_kernel",
                                         "gridding_GPU"};
    mg_ctx *c = ctx;
    if (idx >= 4) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "%s", names[idx]);
    out->k.block = (wc_dim3){idx == 3 ? 64u : 512u, 1, 1};
    uint64_t blocks = idx == 3 ? c->nbins : idx == 1 ? (c->nbins + 511) / 512 : (c->n + 511) / 512;
    out->k.grid = (wc_dim3){(uint32_t)blocks, 1, 1};
    out->k.regs_per_thread = 24;
    out->k.shmem_bytes = idx == 3 ? 64 * 16 : idx == 1 ? 512 * 4 : 0;
    out->next = idx == 0   ? mg_binning_next
                : idx == 1 ? mg_scan_next
                : idx == 2 ? mg_reorder_next
                           : mg_grid_next;
    return 1;
}

static wc_source *open_mri_gridding(wc_params *p, uint64_t seed, wc_err *err)
{
    mg_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "mri-gridding: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "samples", 262144, 1, 1u << 24, &c->n, err) < 0 ||
        wc_params_u64(p, "grid", 64, 4, 512, &c->g, err) < 0 || c->g % 4) {
        if (c->g % 4)
            wc_errf(err, "workload parboil/mri-gridding: parameter grid must be a multiple of 4");
        free(c);
        return NULL;
    }
    c->bside = c->g / 4;
    c->nbins = c->bside * c->bside * c->bside;
    c->key = malloc(c->n * sizeof *c->key);
    c->slot = malloc(c->n * sizeof *c->slot);
    c->idx = malloc(c->n * sizeof *c->idx);
    c->start = calloc(c->nbins + 1, sizeof *c->start);
    if (!c->key || !c->slot || !c->idx || !c->start) {
        mg_destroy(c);
        wc_errf(err, "mri-gridding: out of memory");
        return NULL;
    }
    uint64_t r = wc_rng_seed(seed ^ 0x6d7269ull);
    for (uint64_t i = 0; i < c->n; i++) {
        uint64_t b[3];
        for (int d = 0; d < 3; d++) {
            double v = (double)c->g / 2 + gauss(&r) * (double)c->g / 6;
            if (v < 0) v = 0;
            if (v > (double)c->g - 1) v = (double)c->g - 1;
            b[d] = (uint64_t)v / 4;
        }
        c->key[i] = (uint32_t)((b[2] * c->bside + b[1]) * c->bside + b[0]);
        c->slot[i] = c->start[c->key[i] + 1]++; /* the atomic's result, in thread order */
    }
    for (uint64_t k = 0; k < c->nbins; k++) c->start[k + 1] += c->start[k];
    for (uint64_t i = 0; i < c->n; i++) c->idx[c->start[c->key[i]] + c->slot[i]] = (uint32_t)i;
    wc_gen_program prog = {.ctx = c, .kernel = mg_kernel, .destroy = mg_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_parboil_mri_gridding = {
    .name = "parboil/mri-gridding",
    .suite = "parboil",
    .kernels = "binning_kernel, scan_kernel, reorder_kernel, gridding_GPU",
    .size = "samples=262144 grid=64 (bins of 4^3 points)",
    .classes = "000:CLP",
    .help = "Parboil mri-gridding (approximated kernels, seeded k-space samples); samples, grid",
    .open = open_mri_gridding,
};
WC_PLUGIN(workload, wc_wl_parboil_mri_gridding, 500);
