/*
 * bh.c - Barnes-Hut n-body (LonestarGPU / Burtscher-Pingali style) as an
 * address generator over a seeded Plummer cluster, with a real octree and a
 * real opening-criterion walk.  Facts from ../shared/specs/workloads.md
 * (Lonestar, bh).
 *
 * Input: `bodies` (default 50000) Plummer-model positions, mass 1/N.  The
 * octree (at most one body per leaf slot) is built on the host by inserting
 * bodies in index order; cell 0 is the root, cells are numbered in creation
 * order and stored after the bodies (node id N + cell), child[cell*8 + j] is
 * -1 (empty), a body id or a node id.
 *
 * Launches per time step (default 1 step; blocks default 16):
 *   BoundingBoxKernel<<<B, 512>>>: grid-stride loads of posx/posy/posz, a
 *     shared reduction, thread 0 atomically counts blocks (blkcnt);
 *   TreeBuildingKernel<<<B, 512>>>: grid-stride over bodies: load its
 *     position, chase child pointers from the root down its path (one load
 *     per level, per-lane depth), lock the final slot (atomicCAS, WC_OP_ATOM)
 *     and store the body there;
 *   SummarizationKernel<<<B, 128>>>: grid-stride over cells bottom-up: load
 *     the 8 child pointers, gather mass/posx/posy/posz of the present
 *     children, store the cell's mass, position and count;
 *   ForceCalculationKernel<<<B, 256>>>: grid-stride over bodies in tree
 *     (spatial) order: load sort[i] and the body's position, then a
 *     warp-uniform depth-first walk: per child slot load child[c*8+j] (the
 *     same address in every lane), for a present node load posx/posy/posz/
 *     mass, and descend unless it is a body or every lane finds it far
 *     enough (dist^2 >= (cell side / theta)^2, theta default 0.5); finally
 *     store accx/accy/accz;
 *   IntegrationKernel<<<B, 512>>>: grid-stride loads of acc, vel, pos and
 *     stores of vel, pos.
 * Approximations (documented): tree building follows each body's path in the
 * final tree (cells split by later insertions are not revisited) and omits
 * cell allocation; ClearKernel1/2 and SortKernel are not generated (the walk
 * order is the tree's in-order body order, which SortKernel computes); later
 * steps reuse the first step's tree.
 * Arrays: 0-2 posx/y/z, 3 mass, 4 child, 5 sort, 6-8 acc, 9-11 vel,
 * 12 count, 13 blkcnt.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define BH(k)     WC_GEN_REGION(k)
#define BH_MAXDEP 48

typedef struct bh_ctx {
    uint64_t n, ncell, cap, steps, blocks;
    double theta;
    double *px, *py, *pz;              /* bodies then cells (centre of mass) */
    double *side;                      /* per cell */
    int32_t *child;                    /* ncell x 8 */
    int32_t *parent, *slot;            /* per cell */
    uint32_t *leaf, *depth, *leafslot; /* per body: holding cell, path length, slot */
    uint32_t *sort;                    /* in-order body order */
} bh_ctx;

static void bh_destroy(void *ctx)
{
    bh_ctx *c = ctx;
    free(c->px), free(c->py), free(c->pz), free(c->side), free(c->child), free(c->parent);
    free(c->slot), free(c->leaf), free(c->depth), free(c->leafslot), free(c->sort);
    free(c);
}

static int bh_grow(bh_ctx *c)
{
    uint64_t cap = c->cap ? c->cap * 2 : 1024;
    double *x = realloc(c->px, (c->n + cap) * sizeof *x);
    if (!x) return -1;
    c->px = x;
    if (!(x = realloc(c->py, (c->n + cap) * sizeof *x))) return -1;
    c->py = x;
    if (!(x = realloc(c->pz, (c->n + cap) * sizeof *x))) return -1;
    c->pz = x;
    if (!(x = realloc(c->side, cap * sizeof *x))) return -1;
    c->side = x;
    int32_t *i;
    if (!(i = realloc(c->child, cap * 8 * sizeof *i))) return -1;
    c->child = i;
    if (!(i = realloc(c->parent, cap * sizeof *i))) return -1;
    c->parent = i;
    if (!(i = realloc(c->slot, cap * sizeof *i))) return -1;
    c->slot = i;
    c->cap = cap;
    return 0;
}

/* New cell under (parent, slot) with the given centre; returns its number. */
static int64_t bh_new_cell(bh_ctx *c, int32_t parent, int32_t slot, double side)
{
    if (c->ncell == c->cap && bh_grow(c) < 0) return -1;
    uint64_t k = c->ncell++;
    for (int j = 0; j < 8; j++) c->child[k * 8 + j] = -1;
    c->parent[k] = parent;
    c->slot[k] = slot;
    c->side[k] = side;
    return (int64_t)k;
}

static int bh_octant(double cx, double cy, double cz, double x, double y, double z)
{
    return (x > cx) | (y > cy) << 1 | (z > cz) << 2;
}

static int bh_build(bh_ctx *c, uint64_t seed, wc_err *err)
{
    uint64_t n = c->n, r = wc_rng_seed(seed ^ 0x6268ull);
    c->px = malloc(n * sizeof(double));
    c->py = malloc(n * sizeof(double));
    c->pz = malloc(n * sizeof(double));
    c->leaf = malloc(n * sizeof *c->leaf);
    c->depth = malloc(n * sizeof *c->depth);
    c->leafslot = malloc(n * sizeof *c->leafslot);
    c->sort = malloc(n * sizeof *c->sort);
    if (!c->px || !c->py || !c->pz || !c->leaf || !c->depth || !c->leafslot || !c->sort)
        return wc_errf(err, "bh: out of memory");
    double lim = 0;
    for (uint64_t i = 0; i < n; i++) { /* Plummer radius, isotropic direction */
        double u = 0.001 + 0.998 * wc_rng_unit(&r);
        double rad = 1.0 / sqrt(pow(u, -2.0 / 3.0) - 1.0);
        double z = 2 * wc_rng_unit(&r) - 1, ph = 6.283185307179586 * wc_rng_unit(&r);
        double s = sqrt(1 - z * z);
        c->px[i] = rad * s * cos(ph), c->py[i] = rad * s * sin(ph), c->pz[i] = rad * z;
        double m = fmax(fabs(c->px[i]), fmax(fabs(c->py[i]), fabs(c->pz[i])));
        if (m > lim) lim = m;
    }
    /* cell centres kept in temporary arrays indexed by cell */
    double *cx = NULL, *cy = NULL, *cz = NULL;
    uint64_t ccap = 0;
    if (bh_new_cell(c, -1, -1, 2 * lim * 1.0001) < 0) return wc_errf(err, "bh: out of memory");
    for (uint64_t i = 0; i < n; i++) {
        if (c->ncell + 64 > ccap) {
            ccap = c->cap * 2 + 128;
            cx = realloc(cx, ccap * sizeof *cx), cy = realloc(cy, ccap * sizeof *cy);
            cz = realloc(cz, ccap * sizeof *cz);
            if (!cx || !cy || !cz) {
                free(cx), free(cy), free(cz);
                return wc_errf(err, "bh: out of memory");
            }
            if (i == 0) cx[0] = cy[0] = cz[0] = 0;
        }
        uint64_t cell = 0;
        for (unsigned d = 0; d < BH_MAXDEP; d++) {
            int o = bh_octant(cx[cell], cy[cell], cz[cell], c->px[i], c->py[i], c->pz[i]);
            int32_t ch = c->child[cell * 8 + o];
            if (ch < 0 || d == BH_MAXDEP - 1) {
                if (ch < 0) c->child[cell * 8 + o] = (int32_t)i;
                break;
            }
            if ((uint64_t)ch >= n) { /* a cell: go down */
                cell = (uint64_t)ch - n;
                continue;
            }
            /* a body: split this slot into a new cell and reinsert it */
            double h = c->side[cell] / 4;
            int64_t k = bh_new_cell(c, (int32_t)cell, o, c->side[cell] / 2);
            if (k < 0 || (uint64_t)k >= ccap) {
                free(cx), free(cy), free(cz);
                return wc_errf(err, "bh: out of memory");
            }
            cx[k] = cx[cell] + (o & 1 ? h : -h), cy[k] = cy[cell] + (o & 2 ? h : -h);
            cz[k] = cz[cell] + (o & 4 ? h : -h);
            int ob = bh_octant(cx[k], cy[k], cz[k], c->px[ch], c->py[ch], c->pz[ch]);
            c->child[(uint64_t)k * 8 + ob] = ch;
            c->child[cell * 8 + o] = (int32_t)(n + (uint64_t)k);
            cell = (uint64_t)k;
        }
    }
    free(cx), free(cy), free(cz);
    if (bh_grow(c) < 0) return wc_errf(err, "bh: out of memory");
    /* per body: holding cell, slot, depth; centres of mass bottom-up */
    uint32_t *cnt = calloc(c->ncell, sizeof *cnt);
    if (!cnt) return wc_errf(err, "bh: out of memory");
    for (uint64_t k = c->ncell; k-- > 0;) {
        double sx = 0, sy = 0, sz = 0, m = 0;
        for (int j = 0; j < 8; j++) {
            int32_t ch = c->child[k * 8 + j];
            if (ch < 0) continue;
            double w = (uint64_t)ch < n ? 1 : cnt[(uint64_t)ch - n];
            if ((uint64_t)ch < n) {
                c->leaf[ch] = (uint32_t)k;
                c->leafslot[ch] = (uint32_t)j;
            }
            sx += w * c->px[ch], sy += w * c->py[ch], sz += w * c->pz[ch], m += w;
        }
        cnt[k] = (uint32_t)m;
        c->px[n + k] = m ? sx / m : 0, c->py[n + k] = m ? sy / m : 0, c->pz[n + k] = m ? sz / m : 0;
    }
    free(cnt);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t d = 1;
        for (int32_t k = (int32_t)c->leaf[i]; c->parent[k] >= 0; k = c->parent[k]) d++;
        c->depth[i] = d;
    }
    /* in-order body order (what SortKernel produces) */
    uint64_t at = 0, cell = 0;
    int j = 0;
    for (;;) {
        if (j == 8) {
            if (cell == 0) break;
            j = c->slot[cell] + 1;
            cell = (uint64_t)c->parent[cell];
            continue;
        }
        int32_t ch = c->child[cell * 8 + j];
        if (ch >= 0 && (uint64_t)ch < n) c->sort[at++] = (uint32_t)ch;
        if (ch >= 0 && (uint64_t)ch >= n) {
            cell = (uint64_t)ch - n;
            j = 0;
        } else
            j++;
    }
    return 0;
}

/* Cell on body b's path at depth d (0 = root). */
static uint64_t bh_path(const bh_ctx *c, uint32_t b, uint32_t d)
{
    uint64_t k = c->leaf[b];
    for (uint32_t up = c->depth[b] - 1; up > d; up--) k = (uint64_t)c->parent[k];
    return k;
}

/* Octant of body b inside the path cell at depth d: the slot leading on. */
static uint32_t bh_path_slot(const bh_ctx *c, uint32_t b, uint32_t d)
{
    if (d + 1 == c->depth[b]) return c->leafslot[b];
    return (uint32_t)c->slot[bh_path(c, b, d + 1)];
}

static int bh_box_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bh_ctx *c = gk->arg;
    uint64_t stride = c->blocks * 512, t0 = w->block_id * 512 + w->warp * 32;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = (int64_t)t0; w->v[0] < (int64_t)c->n; w->v[0] += (int64_t)stride)
        for (w->v[1] = 0; w->v[1] < 3; w->v[1]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, wc_gen_mask_below((uint64_t)w->v[0], c->n),
                                     3, 2, 4, BH(w->v[1]) + (uint64_t)w->v[0] * 4, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x18, 0xffffffffu, 4, 3, 4));
        }
    for (w->v[1] = 0; w->v[1] < 9; w->v[1]++) {
        WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x28, 0xffffffffu, 4, 4, 5));
    }
    if (w->warp) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_ATOM, 1u, 6, WC_REG_NONE, 4, BH(13), 0));
    WC_CO_END(w);
}

static int bh_tree_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bh_ctx *c = gk->arg;
    uint64_t stride = c->blocks * 512, t0 = w->block_id * 512 + w->warp * 32;
    uint32_t dm = 0;
#define i0   ((uint64_t)w->v[0])
#define live wc_gen_mask_below((uint64_t)w->v[0], c->n)
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = (int64_t)t0; w->v[0] < (int64_t)c->n; w->v[0] += (int64_t)stride) {
        for (w->v[1] = 0; w->v[1] < 3; w->v[1]++)
            WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, wc_gen_mask_below((uint64_t)w->v[0], c->n),
                                     3 + (unsigned)w->v[1], 2, 4,
                                     BH(w->v[1]) + (uint64_t)w->v[0] * 4, 4));
        w->v[2] = 0;
        for (unsigned l = 0; l < WC_WARP_SIZE; l++)
            if ((live >> l & 1u) && c->depth[i0 + l] > w->v[2]) w->v[2] = c->depth[i0 + l];
        for (w->v[1] = 0; w->v[1] < w->v[2]; w->v[1]++) {
            dm = 0;
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if ((live >> l & 1u) && c->depth[i0 + l] > w->v[1]) dm |= 1u << l;
            WC_CO_EMIT(w, wc_gen_alu(o, 0x18, dm, 6, 3, 7));
            dm = 0;
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if ((live >> l & 1u) && c->depth[i0 + l] > w->v[1]) dm |= 1u << l;
            /* the last level is the locked slot (below); earlier ones are loads */
            if (dm)
                WC_CO_EMIT(w, {
                    wc_gen_mem_list(o, 0x20, WC_OP_LDG, dm, 7, 7, 4);
                    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                        if (dm >> l & 1u) {
                            uint32_t b = (uint32_t)(i0 + l), d = (uint32_t)w->v[1];
                            o->addr[l] = BH(4) + (bh_path(c, b, d) * 8 + bh_path_slot(c, b, d)) * 4;
                        }
                });
        }
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x28, WC_OP_ATOM, live, 8, 7, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (live >> l & 1u)
                    o->addr[l] = BH(4) + (c->leaf[i0 + l] * 8ull + c->leafslot[i0 + l]) * 4;
        });
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x30, WC_OP_STG, live, 2, 7, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (live >> l & 1u)
                    o->addr[l] = BH(4) + (c->leaf[i0 + l] * 8ull + c->leafslot[i0 + l]) * 4;
        });
    }
    WC_CO_END(w);
#undef i0
#undef live
}

/* Lanes whose cell k (= ncell-1 - (v0 + l)) exists; child j present. */
static uint32_t bh_sum_mask(const bh_ctx *c, int64_t first, int j)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t t = (uint64_t)first + l;
        if (t >= c->ncell) break;
        uint64_t k = c->ncell - 1 - t;
        if (j < 0 || c->child[k * 8 + (unsigned)j] >= 0) m |= 1u << l;
    }
    return m;
}

static int bh_sum_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bh_ctx *c = gk->arg;
    uint64_t stride = c->blocks * 128, t0 = w->block_id * 128 + w->warp * 32;
    uint32_t m;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = (int64_t)t0; w->v[0] < (int64_t)c->ncell; w->v[0] += (int64_t)stride) {
        for (w->v[1] = 0; w->v[1] < 8; w->v[1]++) {
            /* lanes hold cells k, k-1, ...: child[k*8+j] has stride -32 B */
            m = bh_sum_mask(c, w->v[0], -1);
            WC_CO_EMIT(
                w,
                wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3, 2, 4,
                           BH(4) + ((c->ncell - 1 - (uint64_t)w->v[0]) * 8 + (uint64_t)w->v[1]) * 4,
                           -32));
            m = bh_sum_mask(c, w->v[0], (int)w->v[1]);
            if (!m) continue;
            for (w->v[2] = 0; w->v[2] < 4; w->v[2]++) /* mass, posx, posy, posz */
                WC_CO_EMIT(w, {
                    uint32_t mm = bh_sum_mask(c, w->v[0], (int)w->v[1]);
                    wc_gen_mem_list(o, 0x18, WC_OP_LDG, mm, 4, 3, 4);
                    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                        if (mm >> l & 1u) {
                            uint64_t k = c->ncell - 1 - ((uint64_t)w->v[0] + l);
                            int32_t ch = c->child[k * 8 + (uint64_t)w->v[1]];
                            o->addr[l] = BH(w->v[2] == 0 ? 3 : w->v[2] - 1) + (uint64_t)ch * 4;
                        }
                });
            m = bh_sum_mask(c, w->v[0], (int)w->v[1]);
            WC_CO_EMIT(w, wc_gen_alu(o, 0x20, m, 5, 4, 5));
        }
        for (w->v[2] = 0; w->v[2] < 5; w->v[2]++) { /* mass, posx, posy, posz, count */
            m = bh_sum_mask(c, w->v[0], -1);
            WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, m, 5, 2, 4,
                                     BH(w->v[2] == 0   ? 3
                                        : w->v[2] == 4 ? 12
                                                       : w->v[2] - 1) +
                                         (c->n + c->ncell - 1 - (uint64_t)w->v[0]) * 4,
                                     -4));
        }
    }
    WC_CO_END(w);
}

/* Whether every live lane finds node `node` far enough (or it is a body). */
static bool bh_far(const bh_ctx *c, uint64_t i0, uint32_t live, int64_t node)
{
    if ((uint64_t)node < c->n) return true;
    double s = c->side[(uint64_t)node - c->n] / c->theta, dq = s * s;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(live >> l & 1u)) continue;
        uint32_t b = c->sort[i0 + l];
        double dx = c->px[node] - c->px[b], dy = c->py[node] - c->py[b],
               dz = c->pz[node] - c->pz[b];
        if (dx * dx + dy * dy + dz * dz < dq) return false;
    }
    return true;
}

static int bh_force_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bh_ctx *c = gk->arg;
    uint64_t stride = c->blocks * 256, t0 = w->block_id * 256 + w->warp * 32;
    /* macros, not locals: v[4] advances inside the coroutine */
#define i0   ((uint64_t)w->v[4])
#define live wc_gen_mask_below((uint64_t)w->v[4], c->n)
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[4] = (int64_t)t0; w->v[4] < (int64_t)c->n; w->v[4] += (int64_t)stride) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 3, 2, 4, BH(5) + i0 * 4, 4));
        for (w->v[5] = 0; w->v[5] < 3; w->v[5]++)
            WC_CO_EMIT(w, {
                wc_gen_mem_list(o, 0x18, WC_OP_LDG, live, 4 + (unsigned)w->v[5], 3, 4);
                for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                    if (live >> l & 1u) o->addr[l] = BH(w->v[5]) + c->sort[i0 + l] * 4ull;
            });
        w->v[0] = 0; /* cell */
        w->v[1] = 0; /* next child slot */
        while (w->v[0] >= 0) {
            if (w->v[1] == 8) { /* all children done: back to the parent */
                if (w->v[0] == 0) break;
                w->v[1] = c->slot[w->v[0]] + 1;
                w->v[0] = c->parent[w->v[0]];
                continue;
            }
            WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_LDG, live, 8, WC_REG_NONE, 4,
                                     BH(4) + ((uint64_t)w->v[0] * 8 + (uint64_t)w->v[1]) * 4, 0));
            w->v[3] = c->child[(uint64_t)w->v[0] * 8 + (uint64_t)w->v[1]];
            if (w->v[3] < 0) {
                w->v[1]++;
                continue;
            }
            for (w->v[5] = 0; w->v[5] < 4; w->v[5]++)
                WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDG, live, 9 + (unsigned)w->v[5], 8, 4,
                                         BH(w->v[5]) + (uint64_t)w->v[3] * 4, 0));
            for (w->v[5] = 0; w->v[5] < 3; w->v[5]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x30, live, 13, 9 + (unsigned)w->v[5], 4));
            if (bh_far(c, i0, live, w->v[3])) {
                for (w->v[5] = 0; w->v[5] < 6; w->v[5]++)
                    WC_CO_EMIT(w, {
                        wc_gen_alu(o, 0x38, live, 14, 13, 12);
                        if (w->v[5] == 2) o->op = WC_OP_SFU; /* rsqrt */
                    });
                w->v[1]++;
            } else {
                w->v[0] = w->v[3] - (int64_t)c->n;
                w->v[1] = 0;
            }
        }
        for (w->v[5] = 0; w->v[5] < 3; w->v[5]++)
            WC_CO_EMIT(w, {
                wc_gen_mem_list(o, 0x40, WC_OP_STG, live, 14, 3, 4);
                for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                    if (live >> l & 1u) o->addr[l] = BH(6 + w->v[5]) + c->sort[i0 + l] * 4ull;
            });
    }
    WC_CO_END(w);
#undef i0
#undef live
}

static int bh_integrate_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    static const uint8_t ld[9] = {6, 7, 8, 9, 10, 11, 0, 1, 2}, st[6] = {9, 10, 11, 0, 1, 2};
    const bh_ctx *c = gk->arg;
    uint64_t stride = c->blocks * 512, t0 = w->block_id * 512 + w->warp * 32;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = (int64_t)t0; w->v[0] < (int64_t)c->n; w->v[0] += (int64_t)stride) {
        for (w->v[1] = 0; w->v[1] < 9; w->v[1]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, wc_gen_mask_below((uint64_t)w->v[0], c->n),
                                     3 + (unsigned)w->v[1], 2, 4,
                                     BH(ld[w->v[1]]) + (uint64_t)w->v[0] * 4, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x18, 0xffffffffu, 12, 3 + (unsigned)w->v[1], 12));
        }
        for (w->v[1] = 0; w->v[1] < 6; w->v[1]++)
            WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, wc_gen_mask_below((uint64_t)w->v[0], c->n),
                                     12, 2, 4, BH(st[w->v[1]]) + (uint64_t)w->v[0] * 4, 4));
    }
    WC_CO_END(w);
}

static int bh_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    static const char *const names[5] = {"BoundingBoxKernel", "TreeBuildingKernel",
                                         "SummarizationKernel", "ForceCalculationKernel",
                                         "IntegrationKernel"};
    static const uint32_t threads[5] = {512, 512, 128, 256, 512};
    bh_ctx *c = ctx;
    if (idx >= 5 * c->steps) return 0;
    unsigned s = idx % 5;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "%s", names[s]);
    out->k.block = (wc_dim3){threads[s], 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->blocks, 1, 1};
    out->k.regs_per_thread = 32;
    out->next = s == 0   ? bh_box_next
                : s == 1 ? bh_tree_next
                : s == 2 ? bh_sum_next
                : s == 3 ? bh_force_next
                         : bh_integrate_next;
    return 1;
}

static wc_source *open_bh(wc_params *p, uint64_t seed, wc_err *err)
{
    bh_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "bh: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "bodies", 50000, 2, 1u << 22, &c->n, err) < 0 ||
        wc_params_u64(p, "steps", 1, 1, 1000, &c->steps, err) < 0 ||
        wc_params_u64(p, "blocks", 16, 1, 4096, &c->blocks, err) < 0 ||
        wc_params_f64(p, "theta", 0.5, 0.001, 2.0, &c->theta, err) < 0 ||
        bh_build(c, seed, err) < 0) {
        bh_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = bh_kernel, .destroy = bh_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_lonestar_bh = {
    .name = "lonestar/bh",
    .suite = "lonestar",
    .kernels = "(BoundingBox, TreeBuilding, Summarization, ForceCalculation, Integration) x steps",
    .size = "bodies=50000 steps=1 blocks=16 theta=0.5 (Plummer)",
    .classes = "001:CNF",
    .help = "Barnes-Hut over a seeded Plummer cluster; bodies, steps, blocks, theta",
    .open = open_bh,
};
WC_PLUGIN(workload, wc_wl_lonestar_bh, 550);
