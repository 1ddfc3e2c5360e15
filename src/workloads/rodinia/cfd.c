/*
 * cfd.c - Rodinia cfd (euler3d, CUDA) as an address generator over a seeded
 * unstructured mesh.  Facts from ../shared/specs/workloads.md (Rodinia,
 * cfd) and the original's launch sequence.
 *
 * Mesh: nel elements (default 97046, fvcorr.domn.097K), padded to nelr, a
 * multiple of 192 (97152).  Elements sit in a box of side ceil(cbrt(nel)) in
 * x-fastest order; each has 4 face neighbours (tetrahedra have 4 faces): 4 of
 * its 6 axis neighbours, the 2 dropped chosen per element by the seeded RNG.
 * A neighbour outside the box is a boundary: -1 (wall) on the z faces, -2
 * (far field) on the x and y faces; a neighbour index >= nel is a wall.
 * Element numbers are then shuffled within aligned windows of 32, so
 * neighbours are near in index but not perfectly regular (like a mesh
 * renumbered for locality).  Padding elements have 4 wall neighbours.
 *
 * Launches (blocks of 192): initialize_variables x3 (variables, old
 * variables, fluxes: 5 stores at i + v*nelr), then per iteration
 * compute_step_factor (5 variable loads, areas[i], store step_factors[i])
 * and 3 x (compute_flux, time_step).  compute_flux: 5 variable loads; per
 * neighbour j < 4: ese[i + j*nelr], normals[i + (j + k*4)*nelr] for k < 3,
 * and for nb >= 0 the 5 gathers variables[nb + v*nelr]; 5 flux stores.
 * time_step: step_factors[i], then per v: old[i+v*nelr], fluxes[i+v*nelr],
 * store variables[i+v*nelr].  The original runs 2000 iterations; every
 * iteration's stream is the same, so the default here is 1 (iterations=N).
 * Arrays: 0 variables, 1 old_variables, 2 fluxes, 3 areas, 4 step_factors,
 * 5 elements_surrounding_elements, 6 normals.
 */
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define CFD_VAR   WC_GEN_REGION(0)
#define CFD_OLD   WC_GEN_REGION(1)
#define CFD_FLUX  WC_GEN_REGION(2)
#define CFD_AREA  WC_GEN_REGION(3)
#define CFD_STEP  WC_GEN_REGION(4)
#define CFD_ESE   WC_GEN_REGION(5)
#define CFD_NORM  WC_GEN_REGION(6)
#define CFD_BLOCK 192u

typedef struct cfd_ctx {
    uint64_t nel, nelr, iterations;
    int32_t *ese; /* nelr x 4, element-major here (ese[i*4+j]) */
} cfd_ctx;

static int cfd_build(cfd_ctx *c, uint64_t seed, wc_err *err)
{
    uint64_t side = 1;
    while (side * side * side < c->nel) side++;
    c->ese = malloc(c->nelr * 4 * sizeof *c->ese);
    uint32_t *perm = malloc(c->nel * sizeof *perm);
    if (!c->ese || !perm) {
        free(perm);
        return wc_errf(err, "cfd: out of memory");
    }
    uint64_t r = wc_rng_seed(seed ^ 0x636664ull);
    /* renumbering: shuffle within aligned windows of 32 */
    for (uint64_t i = 0; i < c->nel; i++) perm[i] = (uint32_t)i;
    for (uint64_t w0 = 0; w0 < c->nel; w0 += 32) {
        uint64_t n = c->nel - w0 < 32 ? c->nel - w0 : 32;
        for (uint64_t i = n; i > 1; i--) {
            uint64_t j = wc_rng_below(&r, i);
            uint32_t t = perm[w0 + i - 1];
            perm[w0 + i - 1] = perm[w0 + j];
            perm[w0 + j] = t;
        }
    }
    for (uint64_t e = 0; e < c->nel; e++) {
        int64_t x = (int64_t)(e % side), y = (int64_t)(e / side % side),
                z = (int64_t)(e / (side * side));
        unsigned drop1 = (unsigned)wc_rng_below(&r, 6), drop2 = (unsigned)wc_rng_below(&r, 5);
        if (drop2 >= drop1) drop2++;
        unsigned j = 0;
        for (unsigned d = 0; d < 6; d++) {
            if (d == drop1 || d == drop2) continue;
            int64_t nx = x + (d == 0 ? -1 : d == 1 ? 1 : 0);
            int64_t ny = y + (d == 2 ? -1 : d == 3 ? 1 : 0);
            int64_t nz = z + (d == 4 ? -1 : d == 5 ? 1 : 0);
            int32_t nb;
            int64_t s = (int64_t)side;
            if (nz < 0 || nz >= s)
                nb = -1;
            else if (nx < 0 || nx >= s || ny < 0 || ny >= s)
                nb = -2;
            else {
                uint64_t ne = (uint64_t)(nx + s * (ny + s * nz));
                nb = ne < c->nel ? (int32_t)perm[ne] : -1;
            }
            c->ese[(uint64_t)perm[e] * 4 + j++] = nb;
        }
    }
    for (uint64_t e = c->nel; e < c->nelr; e++)
        for (unsigned j = 0; j < 4; j++) c->ese[e * 4 + j] = -1;
    free(perm);
    return 0;
}

static int cfd_init_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const cfd_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * CFD_BLOCK + w->warp * 32, arr = WC_GEN_REGION(gk->k.id - 1);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_STG, 0xffffffffu, WC_REG_NONE, 2, 4,
                                 arr + (i0 + (uint64_t)w->v[0] * c->nelr) * 4, 4));
    WC_CO_END(w);
}

static int cfd_step_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const cfd_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * CFD_BLOCK + w->warp * 32;
    const uint32_t all = 0xffffffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, all, 3 + (unsigned)w->v[0], 2, 4,
                                 CFD_VAR + (i0 + (uint64_t)w->v[0] * c->nelr) * 4, 4));
    for (w->v[0] = 0; w->v[0] < 8; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_alu(o, 0x18, all, 8, 3 + (unsigned)(w->v[0] % 5), 8));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_LDG, all, 9, 2, 4, CFD_AREA + i0 * 4, 4));
    WC_CO_EMIT(w, {
        wc_gen_alu(o, 0x28, all, 9, 9, 8);
        o->op = WC_OP_SFU;
    });
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STG, all, 9, 2, 4, CFD_STEP + i0 * 4, 4));
    WC_CO_END(w);
}

/* Lanes whose neighbour j is an element (nb >= 0), -1 or -2. */
static uint32_t cfd_nb_mask(const cfd_ctx *c, uint64_t i0, int64_t j, int kind)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int32_t nb = c->ese[(i0 + l) * 4 + (uint64_t)j];
        if ((kind == 0 && nb >= 0) || (kind != 0 && nb == -kind)) m |= 1u << l;
    }
    return m;
}

static void cfd_gather(const cfd_ctx *c, wc_winst *o, uint64_t i0, int64_t j, int64_t v, uint32_t m)
{
    wc_gen_mem_list(o, 0x40, WC_OP_LDG, m, 12 + (unsigned)v, 11, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (m >> l & 1u)
            o->addr[l] = CFD_VAR +
                         ((uint64_t)c->ese[(i0 + l) * 4 + (uint64_t)j] + (uint64_t)v * c->nelr) * 4;
}

static int cfd_flux_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const cfd_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * CFD_BLOCK + w->warp * 32, nelr = c->nelr;
    const uint32_t all = 0xffffffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, all, 3 + (unsigned)w->v[0], 2, 4,
                                 CFD_VAR + (i0 + (uint64_t)w->v[0] * nelr) * 4, 4));
    for (w->v[0] = 0; w->v[0] < 14; w->v[0]++) /* velocity, pressure, speed of sound, fluxes */
        WC_CO_EMIT(w, wc_gen_alu(o, 0x18, all, 8, 3 + (unsigned)(w->v[0] % 5), 8));
    for (w->v[1] = 0; w->v[1] < 4; w->v[1]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_LDG, all, 11, 2, 4,
                                 CFD_ESE + (i0 + (uint64_t)w->v[1] * nelr) * 4, 4));
        for (w->v[0] = 0; w->v[0] < 3; w->v[0]++)
            WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDG, all, 9, 2, 4,
                                     CFD_NORM + (i0 + (uint64_t)(w->v[1] + w->v[0] * 4) * nelr) * 4,
                                     4));
        WC_CO_EMIT(w, {
            wc_gen_alu(o, 0x30, all, 10, 9, 9);
            o->op = WC_OP_SFU;
        });
        if (cfd_nb_mask(c, i0, w->v[1], 0)) {
            for (w->v[0] = 0; w->v[0] < 5; w->v[0]++)
                WC_CO_EMIT(w,
                           cfd_gather(c, o, i0, w->v[1], w->v[0], cfd_nb_mask(c, i0, w->v[1], 0)));
            for (w->v[0] = 0; w->v[0] < 36; w->v[0]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x48, cfd_nb_mask(c, i0, w->v[1], 0), 8,
                                         12 + (unsigned)(w->v[0] % 5), 10));
        }
        if (cfd_nb_mask(c, i0, w->v[1], 1))
            for (w->v[0] = 0; w->v[0] < 3; w->v[0]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x50, cfd_nb_mask(c, i0, w->v[1], 1), 8, 9, 8));
        if (cfd_nb_mask(c, i0, w->v[1], 2))
            for (w->v[0] = 0; w->v[0] < 15; w->v[0]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x58, cfd_nb_mask(c, i0, w->v[1], 2), 8, 9, 8));
    }
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_STG, all, 8, 2, 4,
                                 CFD_FLUX + (i0 + (uint64_t)w->v[0] * nelr) * 4, 4));
    WC_CO_END(w);
}

static int cfd_time_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const cfd_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * CFD_BLOCK + w->warp * 32, nelr = c->nelr;
    const uint32_t all = 0xffffffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, all, 3, 2, 4, CFD_STEP + i0 * 4, 4));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x18, all, 3, 3, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_LDG, all, 4, 2, 4,
                                 CFD_OLD + (i0 + (uint64_t)w->v[0] * nelr) * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDG, all, 5, 2, 4,
                                 CFD_FLUX + (i0 + (uint64_t)w->v[0] * nelr) * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x30, all, 4, 5, 3));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_STG, all, 4, 2, 4,
                                 CFD_VAR + (i0 + (uint64_t)w->v[0] * nelr) * 4, 4));
    }
    WC_CO_END(w);
}

static int cfd_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    cfd_ctx *c = ctx;
    if (idx >= 3 + 7 * c->iterations) return 0;
    out->arg = c;
    out->k.block = (wc_dim3){CFD_BLOCK, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)(c->nelr / CFD_BLOCK), 1, 1};
    out->k.regs_per_thread = 40;
    const char *name;
    if (idx < 3) {
        name = "initialize_variables";
        out->k.id = idx + 1; /* selects the array it writes */
        out->next = cfd_init_next;
    } else {
        uint32_t s = (idx - 3) % 7;
        if (s == 0) {
            name = "compute_step_factor";
            out->next = cfd_step_next;
        } else if (s % 2) {
            name = "compute_flux";
            out->next = cfd_flux_next;
        } else {
            name = "time_step";
            out->next = cfd_time_next;
        }
    }
    snprintf(out->k.name, sizeof out->k.name, "%s", name);
    return 1;
}

static void cfd_destroy(void *ctx)
{
    cfd_ctx *c = ctx;
    free(c->ese);
    free(c);
}

static wc_source *open_cfd(wc_params *p, uint64_t seed, wc_err *err)
{
    cfd_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "cfd: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "elements", 97046, 1, 1u << 24, &c->nel, err) < 0 ||
        wc_params_u64(p, "iterations", 1, 1, 100000, &c->iterations, err) < 0) {
        free(c);
        return NULL;
    }
    c->nelr = (c->nel + CFD_BLOCK - 1) / CFD_BLOCK * CFD_BLOCK;
    if (cfd_build(c, seed, err) < 0) {
        cfd_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = cfd_kernel, .destroy = cfd_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_cfd = {
    .name = "rodinia/cfd",
    .suite = "rodinia",
    .kernels = "initialize_variables x3, (compute_step_factor, (compute_flux, time_step) x3) x "
               "iterations",
    .size = "elements=97046 (padded to 97152) iterations=1 (original: 2000)",
    .classes = "000:CLN 001:CI",
    .help = "Rodinia cfd euler3d over a seeded mesh; elements, iterations",
    .open = open_cfd,
};
WC_PLUGIN(workload, wc_wl_rodinia_cfd, 430);
