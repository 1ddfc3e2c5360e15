/*
 * convsep.c - the CUDA SDK convolutionSeparable sample, seed 002's "CONV"
 * (Table 2, streaming).  Facts from the sample's public source.
 *
 * A 3072 x 3072 float image (pitch = width) is filtered by a 17-tap kernel
 * (radius 8, in constant memory) along rows into a buffer, then along
 * columns into the output.  Both kernels stage a tile with a one-step halo
 * in shared memory:
 *   convolutionRowsKernel<<<(W/(8*16), H/4), (16, 4)>>>: baseX = (bx*8 - 1)*16
 *     + tx, baseY = by*4 + ty; loads src[baseY*W + baseX + i*16] for the 8
 *     main steps i = 1..8, then the left halo i = 0 if baseX >= 0 and the
 *     right halo i = 9 if W - baseX > 144 (a zero is stored to shared memory
 *     otherwise); barrier; per result step i = 1..8: 17 shared-memory taps,
 *     store dst[baseY*W + baseX + i*16].
 *   convolutionColumnsKernel<<<(W/16, H/(8*8)), (16, 8)>>>: baseX = bx*16 +
 *     tx, baseY = (by*8 - 1)*8 + ty; the same with steps of 8 rows:
 *     src[(baseY + i*8)*W + baseX], halo conditions baseY >= 0 and
 *     H - baseY > 72.
 * A warp is two rows of 16 threads, so each load touches two 64-byte
 * segments of two image rows.  Halo loads of the first and last tile column
 * (rows kernel) or row (columns kernel) are skipped by the condition for the
 * whole warp.  Arrays: 0 input, 1 buffer, 2 output.
 *
 * Approximated: the constant-memory filter taps are not memory accesses
 * here (one FMA per tap); the sample times 16 iterations after a warm-up,
 * the default here is 1 (`iterations`, each a rows and a columns launch).
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define CS_RADIUS 8
#define CS_TAPS   (2 * CS_RADIUS + 1)
#define CS_BX     16
#define CS_ROWS_Y 4
#define CS_COLS_Y 8
#define CS_HALO   1

typedef struct cs_ctx {
    uint64_t w, h, steps, iterations;
} cs_ctx;

typedef struct cs_launch {
    const cs_ctx *c;
    bool columns;
    unsigned src, dst;
} cs_launch;

/* Element offset of (row, col) step i for lane l of warp w; steps advance
 * along x (rows kernel) or y (columns kernel). */
static int64_t cs_elem(const cs_launch *a, const wc_gen_warp *w, unsigned l, int64_t i)
{
    const cs_ctx *c = a->c;
    int64_t t = (int64_t)w->warp * WC_WARP_SIZE + l, tx = t % CS_BX, ty = t / CS_BX;
    int64_t bx = (int64_t)w->bid.x, by = (int64_t)w->bid.y;
    if (!a->columns) {
        int64_t x = (bx * (int64_t)c->steps - CS_HALO) * CS_BX + tx, y = by * CS_ROWS_Y + ty;
        return y * (int64_t)c->w + x + i * CS_BX;
    }
    int64_t x = bx * CS_BX + tx, y = (by * (int64_t)c->steps - CS_HALO) * CS_COLS_Y + ty;
    return (y + i * CS_COLS_Y) * (int64_t)c->w + x;
}

/* Is step i of this warp's lanes inside the image?  Every lane of a warp
 * shares the decision: the tile edges are multiples of 16 columns / 8 rows. */
static bool cs_in(const cs_launch *a, const wc_gen_warp *w, int64_t i)
{
    const cs_ctx *c = a->c;
    if (i >= CS_HALO && i < CS_HALO + (int64_t)c->steps) return true;
    if (!a->columns) {
        int64_t base = ((int64_t)w->bid.x * (int64_t)c->steps - CS_HALO) * CS_BX;
        return i < CS_HALO ? base >= -i * CS_BX : (int64_t)c->w - base > i * CS_BX;
    }
    int64_t base = ((int64_t)w->bid.y * (int64_t)c->steps - CS_HALO) * CS_COLS_Y;
    return i < CS_HALO ? base >= -i * CS_COLS_Y : (int64_t)c->h - base > i * CS_COLS_Y;
}

static void cs_mem(wc_winst *o, uint64_t pc, wc_opclass op, unsigned reg, const cs_launch *a,
                   const wc_gen_warp *w, unsigned array, int64_t i)
{
    wc_gen_mem_list(o, pc, op, w->live, reg, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        o->addr[l] = WC_GEN_REGION(array) + (uint64_t)cs_elem(a, w, l, i) * 4;
}

/* Step order of the loads: main steps, then the left/upper halo, then the
 * right/lower halo (the source's three loops). */
static int64_t cs_load_step(const cs_ctx *c, int64_t k)
{
    if (k < (int64_t)c->steps) return k + CS_HALO;
    return k == (int64_t)c->steps ? 0 : (int64_t)c->steps + CS_HALO;
}

static int cs_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const cs_launch *a = gk->arg;
    const cs_ctx *c = a->c;
    uint64_t t0 = (uint64_t)w->warp * WC_WARP_SIZE;
    /* v[0] load / result step, v[1] tap */
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < (int64_t)c->steps + 2 * CS_HALO; w->v[0]++) {
        if (cs_in(a, w, cs_load_step(c, w->v[0])))
            WC_CO_EMIT(w, cs_mem(o, 0x10, WC_OP_LDG, 2, a, w, a->src, cs_load_step(c, w->v[0])));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, w->live, 2, WC_REG_NONE, 4,
                                 (t0 + (uint64_t)cs_load_step(c, w->v[0]) * 64) * 4, 4));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
    for (w->v[0] = CS_HALO; w->v[0] < CS_HALO + (int64_t)c->steps; w->v[0]++) {
        for (w->v[1] = 0; w->v[1] < CS_TAPS; w->v[1]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDS, w->live, 3, WC_REG_NONE, 4,
                                     (t0 + (uint64_t)(w->v[0] * 64 + w->v[1])) * 4, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x30, w->live, 4, 3, 4));
        }
        WC_CO_EMIT(w, cs_mem(o, 0x38, WC_OP_STG, 4, a, w, a->dst, w->v[0]));
    }
    WC_CO_END(w);
}

typedef struct cs_prog {
    cs_launch l[2];
    cs_ctx c;
} cs_prog;

static int cs_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    cs_prog *pr = ctx;
    const cs_ctx *c = &pr->c;
    if (idx >= 2 * c->iterations) return 0;
    cs_launch *a = &pr->l[idx % 2]; /* rows, then columns */
    out->arg = a;
    out->next = cs_next;
    out->k.regs_per_thread = 16;
    if (!a->columns) {
        snprintf(out->k.name, sizeof out->k.name, "convolutionRowsKernel");
        out->k.block = (wc_dim3){CS_BX, CS_ROWS_Y, 1};
        out->k.grid =
            (wc_dim3){(uint32_t)(c->w / (c->steps * CS_BX)), (uint32_t)(c->h / CS_ROWS_Y), 1};
        out->k.shmem_bytes = (uint32_t)(CS_ROWS_Y * (c->steps + 2 * CS_HALO) * CS_BX * 4);
    } else {
        snprintf(out->k.name, sizeof out->k.name, "convolutionColumnsKernel");
        out->k.block = (wc_dim3){CS_BX, CS_COLS_Y, 1};
        out->k.grid =
            (wc_dim3){(uint32_t)(c->w / CS_BX), (uint32_t)(c->h / (c->steps * CS_COLS_Y)), 1};
        out->k.shmem_bytes = (uint32_t)(CS_BX * (c->steps + 2 * CS_HALO) * CS_COLS_Y * 4);
    }
    return 1;
}

static wc_source *open_convsep(wc_params *p, uint64_t seed, wc_err *err)
{
    cs_ctx c;
    if (wc_params_u64(p, "width", 3072, 16, 1u << 15, &c.w, err) < 0 ||
        wc_params_u64(p, "height", 3072, 8, 1u << 15, &c.h, err) < 0 ||
        wc_params_u64(p, "steps", 8, 1, 16, &c.steps, err) < 0 ||
        wc_params_u64(p, "iterations", 1, 1, 1000, &c.iterations, err) < 0)
        return NULL;
    /* The sample asserts these divisibilities: its kernels have no guards. */
    if (c.w % (c.steps * CS_BX) || c.h % (c.steps * CS_COLS_Y)) {
        wc_errf(err,
                "workload %s: width must be a multiple of 16*steps and height of 8*steps "
                "(steps=%llu)",
                p->workload, (unsigned long long)c.steps);
        return NULL;
    }
    cs_prog *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "convsep: out of memory");
        return NULL;
    }
    h->c = c;
    h->l[0] = (cs_launch){.c = &h->c, .columns = false, .src = 0, .dst = 1};
    h->l[1] = (cs_launch){.c = &h->c, .columns = true, .src = 1, .dst = 2};
    wc_gen_program prog = {.ctx = h, .kernel = cs_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_sdk_convsep = {
    .name = "sdk/convsep",
    .suite = "sdk",
    .kernels = "(convolutionRowsKernel, convolutionColumnsKernel) x iterations",
    .size = "width=3072 height=3072 steps=8 iterations=1",
    .classes = "002:streaming",
    .help = "CUDA SDK convolutionSeparable (seed 002 CONV): 17-tap row then column filter with "
            "shared-memory tiles; width, height, steps (result steps per thread), iterations",
    .open = open_convsep,
};
WC_PLUGIN(workload, wc_wl_sdk_convsep, 620);
