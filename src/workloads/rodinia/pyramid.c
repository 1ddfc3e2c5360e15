/*
 * pyramid.c - the two Rodinia "pyramid" kernels, which load a tile with a
 * halo once, iterate several time steps in shared memory, and store only the
 * still-valid interior: hotspot (calculate_temp) and pathfinder
 * (dynproc_kernel).  Facts from ../shared/specs/workloads.md (Rodinia).
 *
 * hotspot: grid_rows x grid_cols (default 512 x 512), pyramid_height p
 * (default 2), total iterations (default 2): ceil(total/p) launches of
 * calculate_temp<<<(B,B), (16,16)>>> with B = ceil(cols/(16-2p)) (43), tile
 * origin (12*bx-2, 12*by-2).  Each thread loads temp[index] and power[index]
 * when in the grid, runs min(p, left) steps in shared memory, and stores
 * temp_dst[index] when its point was computed in the last step.  The source
 * and destination temperature arrays swap each launch (first dst = array 1).
 * Arrays: 0 temp[0], 1 temp[1], 2 power.
 *
 * pathfinder: cols (100000), rows (100), pyramid_height (20): launches for
 * t = 0, p, 2p, ... < rows-1, each dynproc_kernel<<<ceil(cols/(256-2p)), 256>>>
 * with iteration = min(p, rows-1-t), blkX = (256-2*iteration)*bx - p; loads
 * src[xidx] when in range, per step wall[cols*(t+i) + xidx] for computing
 * threads, stores results[xidx] for threads computed in the last step.
 * Arrays: 0 wall (rows-1 rows), 1 result[0], 2 result[1].
 *
 * Shared-memory traffic, barriers and ALU work inside the steps are emitted
 * in roughly the kernels' proportions (6 LDS + 8 ALU per hotspot point,
 * 3 LDS + 4 ALU per pathfinder point).
 *
 * hotspot alu=K (default 1): each step's 8 ALU instructions per point become
 * 8K.  Rodinia's compiled calculate_temp runs about 7.6x the instructions the
 * default emits (seed 001's Table 1: 110M at 512 x 512, 2 steps; ours 14.4M:
 * the index, validity and boundary-clamp arithmetic of the source); K raises
 * the arithmetic per global load without changing any memory access.  Only
 * the shared-memory kernel reads it.
 *
 * hotspot shared=0: seed 004's "unshared" HS/U (004_0fcfedff3b0ef5ba.txt
 * section 4, Table 3, section 5.6): global memory instead of shared memory,
 * every use of a tile value a global load.  The first step loads the centre
 * and its N, S, W, E neighbours from temp_src (the kernel's neighbour
 * clamping to the tile's valid range) and power at the centre; a step's
 * result goes to a block-private scratch tile in global memory (array 3,
 * 2 KiB per block: one 16x16 float tile per step parity, so a step reads the
 * previous one's while writing its own), which the later steps load their
 * five temperatures from; power is loaded from global memory in every step.
 * The barriers between steps stay (the block's warps exchange results
 * through the scratch); the copy temp_t -> temp_on_cuda disappears.
 *
 * pathfinder shared=0 (an unshared version in the same way; not one the seed
 * names): every step loads the left, centre and right previous values
 * (neighbours clamped to the block's valid range, as the kernel does) from
 * src in the first step and from a block-private scratch row in global
 * memory (array 3, 256 floats per step parity) after it, and the wall value;
 * each step but the last stores its result to the scratch row.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

static inline bool in_range(int64_t x, int64_t lo, int64_t hi)
{
    return x >= lo && x <= hi;
}

/* ---- hotspot ---------------------------------------------------------- */

typedef struct hotspot_ctx {
    int64_t rows, cols, pyramid, total, border, small, bcols, brows;
    int64_t alu;   /* instructions per modelled arithmetic step (alu=K) */
    bool unshared; /* shared=0: HS/U */
} hotspot_ctx;

typedef struct hotspot_launch {
    const hotspot_ctx *c;
    int64_t iteration;
    uint64_t src, dst;
} hotspot_launch;

typedef struct hs_lane {
    int64_t index;
    bool load, computed_last;
} hs_lane;

/* Lane l of warp w: whether it loads, its index, and whether it is computed
 * in step i. */
static uint32_t hs_lanes(const hotspot_launch *a, const wc_gen_warp *w, int64_t step,
                         uint32_t *load_mask, uint64_t *addr)
{
    const hotspot_ctx *c = a->c;
    int64_t blkY = c->small * w->bid.y - c->border, blkX = c->small * w->bid.x - c->border;
    int64_t blkYmax = blkY + 15, blkXmax = blkX + 15;
    int64_t vymin = blkY < 0 ? -blkY : 0, vxmin = blkX < 0 ? -blkX : 0;
    int64_t vymax = blkYmax > c->rows - 1 ? 15 - (blkYmax - c->rows + 1) : 15;
    int64_t vxmax = blkXmax > c->cols - 1 ? 15 - (blkXmax - c->cols + 1) : 15;
    uint32_t comp = 0, ld = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int64_t tx = l & 15, ty = 2 * w->warp + (l >> 4), y = blkY + ty, x = blkX + tx;
        if (in_range(y, 0, c->rows - 1) && in_range(x, 0, c->cols - 1)) {
            ld |= 1u << l;
            if (addr) addr[l] = (uint64_t)(c->cols * y + x) * 4;
        }
        if (in_range(tx, step + 1, 14 - step) && in_range(ty, step + 1, 14 - step) &&
            in_range(tx, vxmin, vxmax) && in_range(ty, vymin, vymax))
            comp |= 1u << l;
    }
    if (load_mask) *load_mask = ld;
    return comp;
}

static void hs_list(wc_winst *o, uint64_t pc, wc_opclass op, uint32_t mask, unsigned reg,
                    uint64_t base, const uint64_t *off)
{
    wc_gen_mem_list(o, pc, op, mask, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (mask >> l & 1u) o->addr[l] = base + off[l];
}

static int hotspot_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const hotspot_launch *a = gk->arg;
    uint32_t ld, comp;
    uint64_t off[WC_WARP_SIZE];
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    hs_lanes(a, w, 0, &ld, off);
    if (ld) WC_CO_EMIT(w, hs_list(o, 0x10, WC_OP_LDG, ld, 1, WC_GEN_REGION(a->src), off));
    hs_lanes(a, w, 0, &ld, off);
    if (ld) WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, ld, 1, WC_REG_NONE, 4, 0, 4));
    hs_lanes(a, w, 0, &ld, off);
    if (ld) WC_CO_EMIT(w, hs_list(o, 0x20, WC_OP_LDG, ld, 3, WC_GEN_REGION(2), off));
    hs_lanes(a, w, 0, &ld, off);
    if (ld) WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STS, ld, 3, WC_REG_NONE, 4, 1024, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
    for (w->v[0] = 0; w->v[0] < a->iteration; w->v[0]++) {
        w->v[2] = hs_lanes(a, w, w->v[0], NULL, NULL);
        if (w->v[2]) {
            for (w->v[1] = 0; w->v[1] < 6; w->v[1]++)
                WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDS, (uint32_t)w->v[2], 4 + w->v[1] % 2,
                                         WC_REG_NONE, 4, 0, 4));
            for (w->v[1] = 0; w->v[1] < 8 * a->c->alu; w->v[1]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x40, (uint32_t)w->v[2], 6, 4 + w->v[1] % 2, 6));
            WC_CO_EMIT(
                w, wc_gen_mem(o, 0x48, WC_OP_STS, (uint32_t)w->v[2], 6, WC_REG_NONE, 4, 2048, 4));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x50));
        if (w->v[0] == a->iteration - 1) break;
        if (w->v[2]) {
            WC_CO_EMIT(
                w, wc_gen_mem(o, 0x58, WC_OP_LDS, (uint32_t)w->v[2], 6, WC_REG_NONE, 4, 2048, 4));
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x60, WC_OP_STS, (uint32_t)w->v[2], 6, WC_REG_NONE, 4, 0, 4));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x68));
    }
    comp = hs_lanes(a, w, a->iteration - 1, NULL, off);
    if (comp) WC_CO_EMIT(w, hs_list(o, 0x70, WC_OP_STG, comp, 6, WC_GEN_REGION(a->dst), off));
    WC_CO_END(w);
}

/* HS/U: the address of temperature `which` (0 centre, 1 N, 2 S, 3 W, 4 E)
 * of each lane for step `step`: temp_src in the first step, the block's
 * scratch tile of the previous step after it; which 5 = power at the centre.
 * Neighbours are clamped to the tile's valid (in-grid) range as the kernel
 * does. */
static void hsu_list(const hotspot_launch *a, const wc_gen_warp *w, wc_winst *o, uint64_t pc,
                     uint32_t mask, unsigned reg, int64_t step, int which)
{
    const hotspot_ctx *c = a->c;
    int64_t blkY = c->small * w->bid.y - c->border, blkX = c->small * w->bid.x - c->border;
    int64_t vymin = blkY < 0 ? -blkY : 0, vxmin = blkX < 0 ? -blkX : 0;
    int64_t vymax = blkY + 15 > c->rows - 1 ? 15 - (blkY + 15 - c->rows + 1) : 15;
    int64_t vxmax = blkX + 15 > c->cols - 1 ? 15 - (blkX + 15 - c->cols + 1) : 15;
    wc_gen_mem_list(o, pc, WC_OP_LDG, mask, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int64_t tx = l & 15, ty = 2 * w->warp + (l >> 4);
        switch (which) {
        case 1: ty = ty - 1 < vymin ? vymin : ty - 1; break;
        case 2: ty = ty + 1 > vymax ? vymax : ty + 1; break;
        case 3: tx = tx - 1 < vxmin ? vxmin : tx - 1; break;
        case 4: tx = tx + 1 > vxmax ? vxmax : tx + 1; break;
        default: break;
        }
        if (which == 5)
            o->addr[l] = WC_GEN_REGION(2) + (uint64_t)((c->cols * (blkY + ty) + blkX + tx) * 4);
        else if (step == 0)
            o->addr[l] =
                WC_GEN_REGION(a->src) + (uint64_t)((c->cols * (blkY + ty) + blkX + tx) * 4);
        else
            o->addr[l] = WC_GEN_REGION(3) + (w->block_id * 2 + (uint64_t)(step - 1) % 2) * 1024 +
                         (uint64_t)(ty * 16 + tx) * 4;
    }
}

/* HS/U: the lanes' own scratch element for the result of step `step`. */
static void hsu_store(const hotspot_launch *a, const wc_gen_warp *w, wc_winst *o, uint64_t pc,
                      uint32_t mask, unsigned reg, int64_t step)
{
    wc_gen_mem_list(o, pc, WC_OP_STG, mask, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        o->addr[l] = WC_GEN_REGION(3) + (w->block_id * 2 + (uint64_t)step % 2) * 1024 +
                     (uint64_t)((2 * w->warp + (l >> 4)) * 16 + (l & 15)) * 4;
}

static int hotspot_u_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const hotspot_launch *a = gk->arg;
    uint64_t off[WC_WARP_SIZE];
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < a->iteration; w->v[0]++) {
        w->v[2] = hs_lanes(a, w, w->v[0], NULL, NULL);
        if (w->v[2]) {
            for (w->v[1] = 0; w->v[1] < 6; w->v[1]++)
                WC_CO_EMIT(w, hsu_list(a, w, o, 0x38, (uint32_t)w->v[2], 4 + w->v[1] % 2, w->v[0],
                                       (int)w->v[1]));
            for (w->v[1] = 0; w->v[1] < 8; w->v[1]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x40, (uint32_t)w->v[2], 6, 4 + w->v[1] % 2, 6));
            if (w->v[0] < a->iteration - 1) /* the last step's result goes to temp_dst */
                WC_CO_EMIT(w, hsu_store(a, w, o, 0x48, (uint32_t)w->v[2], 6, w->v[0]));
        }
        if (w->v[0] == a->iteration - 1) break;
        WC_CO_EMIT(w, wc_gen_bar(o, 0x50));
    }
    w->v[2] = hs_lanes(a, w, a->iteration - 1, NULL, off);
    if (w->v[2])
        WC_CO_EMIT(w,
                   hs_list(o, 0x70, WC_OP_STG, (uint32_t)w->v[2], 6, WC_GEN_REGION(a->dst), off));
    WC_CO_END(w);
}

typedef struct hotspot_prog {
    hotspot_ctx c;
    hotspot_launch l;
} hotspot_prog;

static int hotspot_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    hotspot_prog *h = ctx;
    int64_t t = (int64_t)idx * h->c.pyramid;
    if (t >= h->c.total) return 0;
    h->l.c = &h->c;
    h->l.iteration = h->c.total - t < h->c.pyramid ? h->c.total - t : h->c.pyramid;
    h->l.src = idx % 2;
    h->l.dst = 1 - idx % 2;
    out->arg = &h->l;
    snprintf(out->k.name, sizeof out->k.name, "calculate_temp");
    out->k.block = (wc_dim3){16, 16, 1};
    out->k.grid = (wc_dim3){(uint32_t)h->c.bcols, (uint32_t)h->c.brows, 1};
    out->k.shmem_bytes = h->c.unshared ? 0 : 3 * 16 * 16 * 4;
    out->k.regs_per_thread = 32;
    out->next = h->c.unshared ? hotspot_u_next : hotspot_next;
    return 1;
}

static wc_source *open_hotspot(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t n, pyr, total, shared, alu;
    if (wc_params_u64(p, "size", 512, 16, 1u << 15, &n, err) < 0 ||
        wc_params_u64(p, "pyramid", 2, 1, 7, &pyr, err) < 0 ||
        wc_params_u64(p, "iterations", 2, 1, 1u << 20, &total, err) < 0 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0 ||
        wc_params_u64(p, "alu", 1, 1, 64, &alu, err) < 0)
        return NULL;
    hotspot_prog *h = calloc(1, sizeof *h);
    if (!h) {
        wc_errf(err, "hotspot: out of memory");
        return NULL;
    }
    h->c.rows = h->c.cols = (int64_t)n;
    h->c.pyramid = (int64_t)pyr;
    h->c.total = (int64_t)total;
    h->c.unshared = shared == 0;
    h->c.alu = (int64_t)alu;
    h->c.border = (int64_t)pyr; /* pyramid_height * EXPAND_RATE / 2 */
    h->c.small = 16 - 2 * (int64_t)pyr;
    h->c.bcols = (h->c.cols + h->c.small - 1) / h->c.small;
    h->c.brows = (h->c.rows + h->c.small - 1) / h->c.small;
    wc_gen_program prog = {.ctx = h, .kernel = hotspot_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_hotspot = {
    .name = "rodinia/hotspot",
    .suite = "rodinia",
    .kernels = "calculate_temp x ceil(iterations/pyramid)",
    .size = "size=512 pyramid=2 iterations=2",
    .classes = "001:CNF 002:streaming",
    .help = "Rodinia hotspot; size (rows = cols), pyramid (height), iterations (total steps), "
            "shared (0: seed 004's unshared HS/U, global loads instead of shared tiles), alu "
            "(instructions per arithmetic step of a point, 1; Table 1 of seed 001 counts 7.6x "
            "the default's instructions)",
    .open = open_hotspot,
};
WC_PLUGIN(workload, wc_wl_rodinia_hotspot, 320);

/* ---- pathfinder -------------------------------------------------------- */

typedef struct pf_ctx {
    int64_t cols, rows, pyramid;
    bool unshared; /* shared=0 */
} pf_ctx;

typedef struct pf_launch {
    const pf_ctx *c;
    int64_t iteration, step;
    uint64_t src, dst;
} pf_launch;

/* Lanes computed in step i; *load = lanes whose xidx is in the row. */
static uint32_t pf_lanes(const pf_launch *a, const wc_gen_warp *w, int64_t i, uint32_t *load,
                         int64_t *x0)
{
    const pf_ctx *c = a->c;
    int64_t small = 256 - 2 * a->iteration;
    int64_t blkX = small * w->bid.x - c->pyramid, blkXmax = blkX + 255;
    int64_t vmin = blkX < 0 ? -blkX : 0;
    int64_t vmax = blkXmax > c->cols - 1 ? 255 - (blkXmax - c->cols + 1) : 255;
    uint32_t comp = 0, ld = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int64_t tx = w->warp * 32 + l, x = blkX + tx;
        if (in_range(x, 0, c->cols - 1)) ld |= 1u << l;
        if (in_range(tx, i + 1, 254 - i) && in_range(tx, vmin, vmax)) comp |= 1u << l;
    }
    if (load) *load = ld;
    if (x0) *x0 = blkX + w->warp * 32;
    return comp;
}

static int pf_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pf_launch *a = gk->arg;
    const pf_ctx *c = a->c;
    uint32_t ld;
    int64_t x0;
    pf_lanes(a, w, 0, &ld, &x0);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (ld)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, ld, 1, 2, 4,
                                 WC_GEN_REGION(a->src) + (uint64_t)(x0 * 4), 4));
    if (ld) WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, ld, 1, WC_REG_NONE, 4, 0, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
    for (w->v[0] = 0; w->v[0] < a->iteration; w->v[0]++) {
        w->v[2] = pf_lanes(a, w, w->v[0], NULL, NULL);
        if (w->v[2]) {
            for (w->v[1] = 0; w->v[1] < 3; w->v[1]++)
                WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDS, (uint32_t)w->v[2], 3 + w->v[1],
                                         WC_REG_NONE, 4, 0, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x30, (uint32_t)w->v[2], 3, 3, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x38, (uint32_t)w->v[2], 3, 3, 5));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x40, (uint32_t)w->v[2], 2, 2, WC_REG_NONE));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_LDG, (uint32_t)w->v[2], 6, 2, 4,
                                     WC_GEN_REGION(0) +
                                         (uint64_t)((c->cols * (a->step + w->v[0]) + x0) * 4),
                                     4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x50, (uint32_t)w->v[2], 3, 3, 6));
            WC_CO_EMIT(
                w, wc_gen_mem(o, 0x58, WC_OP_STS, (uint32_t)w->v[2], 3, WC_REG_NONE, 4, 1024, 4));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x60));
        if (w->v[0] == a->iteration - 1) break;
        if (w->v[2]) {
            WC_CO_EMIT(
                w, wc_gen_mem(o, 0x68, WC_OP_LDS, (uint32_t)w->v[2], 3, WC_REG_NONE, 4, 1024, 4));
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x70, WC_OP_STS, (uint32_t)w->v[2], 3, WC_REG_NONE, 4, 0, 4));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x78));
    }
    w->v[2] = pf_lanes(a, w, a->iteration - 1, NULL, NULL);
    if (w->v[2])
        WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_STG, (uint32_t)w->v[2], 3, 2, 4,
                                 WC_GEN_REGION(a->dst) + (uint64_t)(x0 * 4), 4));
    WC_CO_END(w);
}

/* Unshared pathfinder: the previous value `which` (0 W, 1 centre, 2 E) of
 * each computing lane of step i: src in the first step, the block's scratch
 * row of step i-1 after it. */
static void pfu_list(const pf_launch *a, const wc_gen_warp *w, wc_winst *o, uint64_t pc,
                     uint32_t mask, unsigned reg, int64_t i, int which)
{
    const pf_ctx *c = a->c;
    int64_t blkX = (256 - 2 * a->iteration) * w->bid.x - c->pyramid, blkXmax = blkX + 255;
    int64_t vmin = blkX < 0 ? -blkX : 0;
    int64_t vmax = blkXmax > c->cols - 1 ? 255 - (blkXmax - c->cols + 1) : 255;
    wc_gen_mem_list(o, pc, WC_OP_LDG, mask, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int64_t tx = w->warp * 32 + l;
        if (which == 0) tx = tx - 1 < vmin ? vmin : tx - 1;
        if (which == 2) tx = tx + 1 > vmax ? vmax : tx + 1;
        if (i == 0)
            o->addr[l] = WC_GEN_REGION(a->src) + (uint64_t)((blkX + tx) * 4);
        else
            o->addr[l] = WC_GEN_REGION(3) + (w->block_id * 2 + (uint64_t)(i - 1) % 2) * 1024 +
                         (uint64_t)tx * 4;
    }
}

static int pfu_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pf_launch *a = gk->arg;
    const pf_ctx *c = a->c;
    int64_t x0;
    pf_lanes(a, w, 0, NULL, &x0);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < a->iteration; w->v[0]++) {
        w->v[2] = pf_lanes(a, w, w->v[0], NULL, NULL);
        if (w->v[2]) {
            for (w->v[1] = 0; w->v[1] < 3; w->v[1]++)
                WC_CO_EMIT(w, pfu_list(a, w, o, 0x28, (uint32_t)w->v[2], 3 + (unsigned)w->v[1],
                                       w->v[0], (int)w->v[1]));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x30, (uint32_t)w->v[2], 3, 3, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x38, (uint32_t)w->v[2], 3, 3, 5));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x40, (uint32_t)w->v[2], 2, 2, WC_REG_NONE));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_LDG, (uint32_t)w->v[2], 6, 2, 4,
                                     WC_GEN_REGION(0) +
                                         (uint64_t)((c->cols * (a->step + w->v[0]) + x0) * 4),
                                     4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x50, (uint32_t)w->v[2], 3, 3, 6));
            if (w->v[0] < a->iteration - 1) /* the last step's result goes to results */
                WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_STG, (uint32_t)w->v[2], 3, 2, 4,
                                         WC_GEN_REGION(3) +
                                             (w->block_id * 2 + (uint64_t)w->v[0] % 2) * 1024 +
                                             w->warp * 128,
                                         4));
        }
        if (w->v[0] == a->iteration - 1) break;
        WC_CO_EMIT(w, wc_gen_bar(o, 0x60));
    }
    w->v[2] = pf_lanes(a, w, a->iteration - 1, NULL, NULL);
    if (w->v[2])
        WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_STG, (uint32_t)w->v[2], 3, 2, 4,
                                 WC_GEN_REGION(a->dst) + (uint64_t)(x0 * 4), 4));
    WC_CO_END(w);
}

typedef struct pf_prog {
    pf_ctx c;
    pf_launch l;
} pf_prog;

static int pf_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    pf_prog *h = ctx;
    int64_t t = (int64_t)idx * h->c.pyramid;
    if (t >= h->c.rows - 1) return 0;
    h->l.c = &h->c;
    h->l.step = t;
    h->l.iteration = h->c.rows - 1 - t < h->c.pyramid ? h->c.rows - 1 - t : h->c.pyramid;
    h->l.src = 1 + idx % 2;
    h->l.dst = 2 - idx % 2;
    out->arg = &h->l;
    snprintf(out->k.name, sizeof out->k.name, "dynproc_kernel");
    int64_t small = 256 - 2 * h->c.pyramid;
    out->k.block = (wc_dim3){256, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((h->c.cols + small - 1) / small), 1, 1};
    out->k.shmem_bytes = h->c.unshared ? 0 : 2 * 256 * 4;
    out->k.regs_per_thread = 16;
    out->next = h->c.unshared ? pfu_next : pf_next;
    return 1;
}

static wc_source *open_pathfinder(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t cols, rows, pyr, shared;
    if (wc_params_u64(p, "cols", 100000, 1, 1u << 28, &cols, err) < 0 ||
        wc_params_u64(p, "rows", 100, 2, 1u << 20, &rows, err) < 0 ||
        wc_params_u64(p, "pyramid", 20, 1, 126, &pyr, err) < 0 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0)
        return NULL;
    pf_prog *h = calloc(1, sizeof *h);
    if (!h) {
        wc_errf(err, "pathfinder: out of memory");
        return NULL;
    }
    h->c.cols = (int64_t)cols;
    h->c.rows = (int64_t)rows;
    h->c.pyramid = (int64_t)pyr;
    h->c.unshared = shared == 0;
    wc_gen_program prog = {.ctx = h, .kernel = pf_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_pathfinder = {
    .name = "rodinia/pathfinder",
    .suite = "rodinia",
    .kernels = "dynproc_kernel x ceil((rows-1)/pyramid)",
    .size = "cols=100000 rows=100 pyramid=20",
    .classes = "001:CI",
    .help = "Rodinia pathfinder; cols, rows, pyramid (height), shared (0: unshared, global "
            "loads instead of the shared rows)",
    .open = open_pathfinder,
};
WC_PLUGIN(workload, wc_wl_rodinia_pathfinder, 360);
