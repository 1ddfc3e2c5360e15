/*
 * nw.c - Rodinia nw (Needleman-Wunsch, CUDA) as an address generator.  Facts
 * from ../shared/specs/workloads.md (Rodinia, nw).
 *
 * Default `needle 2048 10`: cols = rows = 2049 (so matrix rows are not line
 * aligned), block_width = 2048/16 = 128.  Launches: needle_cuda_shared_1 with
 * i = 1..128 blocks (block bx works on tile (bx, i-1-bx)), then
 * needle_cuda_shared_2 with i = 127..1 blocks (tile (bx+128-i, 127-bx)); every
 * block is one warp of 16 threads.  Per block, with base = cols*16*ty_b +
 * 16*tx_b: thread 0 loads matrix[base]; for ty < 16 all load
 * reference[base + cols+1 + tx + cols*ty]; then matrix[base + cols +
 * cols*tx] (column, stride cols), matrix[base + 1 + tx] (row); a 31-step
 * anti-diagonal wavefront in shared memory (LDS/ALU/STS, barriers); finally
 * 16 row stores matrix[base + cols+1 + tx + ty*cols].
 * Arrays: 0 reference, 1 matrix (input_itemsets).
 *
 * shared=0: seed 004's "unshared" NW/U (004_0fcfedff3b0ef5ba.txt section 4,
 * Table 3): the wavefront works on the matrix in global memory instead of
 * the shared tiles temp[17][17] and ref[16][16] (temp[y][x] is
 * matrix[base + cols*y + x], ref[y][x] is reference[base + cols+1 +
 * cols*y + x]).  Step s's computing lanes load temp at (y-1,x-1), (y,x-1),
 * (y-1,x) and ref at (y-1,x-1), and store temp at (y,x), with (x, y) =
 * (tx+1, s-tx+1) for s < 16 and (tx+15-m, 15-tx), m = 30-s, after; the
 * barrier after each step stays.  The staging loads and the final copy of
 * the tile back to the matrix disappear.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define NW_REF WC_GEN_REGION(0)
#define NW_MAT WC_GEN_REGION(1)

typedef struct nw_ctx {
    uint64_t n, cols, bw;
    bool unshared; /* shared=0: NW/U */
} nw_ctx;

typedef struct nw_launch {
    const nw_ctx *c;
    uint64_t i;
    bool second;
} nw_launch;

/* Wavefront step s (0..30): threads tx <= m compute, m = s (s < 16) or 30 - s. */
static inline uint32_t nw_step_mask(int64_t s)
{
    int64_t m = s < 16 ? s : 30 - s;
    return (uint32_t)((1u << (m + 1)) - 1u);
}

static int nw_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const nw_launch *a = gk->arg;
    const nw_ctx *c = a->c;
    uint64_t bx = w->block_id, tbx, tby;
    if (!a->second) {
        tbx = bx;
        tby = a->i - 1 - bx;
    } else {
        tbx = bx + c->bw - a->i;
        tby = c->bw - bx - 1;
    }
    uint64_t base = c->cols * 16 * tby + 16 * tbx;
    const uint32_t all = 0xffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, 1u, 1, 2, 4, NW_MAT + base * 4, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, 1u, 1, WC_REG_NONE, 4, 0, 4));
    for (w->v[1] = 0; w->v[1] < 16; w->v[1]++) {
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x20, WC_OP_LDG, all, 3, 2, 4,
                              NW_REF + (base + c->cols + 1 + c->cols * (uint64_t)w->v[1]) * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STS, all, 3, WC_REG_NONE, 4, 1156, 4));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDG, all, 4, 2, 4, NW_MAT + (base + c->cols) * 4,
                             (int64_t)c->cols * 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_STS, all, 4, WC_REG_NONE, 4, 68, 68));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_LDG, all, 5, 2, 4, NW_MAT + (base + 1) * 4, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_STS, all, 5, WC_REG_NONE, 4, 4, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x60));
    for (w->v[0] = 0; w->v[0] < 31; w->v[0]++) {
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x68, WC_OP_LDS, nw_step_mask(w->v[0]), 6, WC_REG_NONE, 4, 0, 64));
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x70, WC_OP_LDS, nw_step_mask(w->v[0]), 7, WC_REG_NONE, 4, 4, 64));
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0x78, WC_OP_LDS, nw_step_mask(w->v[0]), 8, WC_REG_NONE, 4, 68, 64));
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0x80, WC_OP_LDS, nw_step_mask(w->v[0]), 9, WC_REG_NONE, 4, 1156, 64));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x88, nw_step_mask(w->v[0]), 6, 6, 9));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x90, nw_step_mask(w->v[0]), 7, 7, 8));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x98, nw_step_mask(w->v[0]), 6, 6, 7));
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0xa0, WC_OP_STS, nw_step_mask(w->v[0]), 6, WC_REG_NONE, 4, 72, 64));
        WC_CO_EMIT(w, wc_gen_bar(o, 0xa8));
    }
    for (w->v[1] = 0; w->v[1] < 16; w->v[1]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0xb0, WC_OP_LDS, all, 10, WC_REG_NONE, 4, 72, 4));
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0xb8, WC_OP_STG, all, 10, 2, 4,
                              NW_MAT + (base + c->cols + 1 + c->cols * (uint64_t)w->v[1]) * 4, 4));
    }
    WC_CO_END(w);
}

/* NW/U: for each lane computing in step s, temp (or ref) at the tile
 * element (y + dy, x + dx) of the lane's (x, y); temp[y][x] is
 * matrix[base + cols*y + x], ref[y][x] reference[base + cols+1 + cols*y + x]. */
static void nwu_list(const nw_ctx *c, wc_winst *o, uint64_t pc, wc_opclass op, unsigned reg,
                     int64_t s, uint64_t base, bool ref, int dy, int dx)
{
    uint32_t mask = nw_step_mask(s);
    wc_gen_mem_list(o, pc, op, mask, reg, 2, 4);
    int64_t m = s < 16 ? s : 30 - s;
    for (unsigned tx = 0; tx < 16; tx++) {
        if (!(mask >> tx & 1u)) continue;
        int64_t x = s < 16 ? tx + 1 : tx + 15 - m, y = s < 16 ? s - tx + 1 : 15 - (int64_t)tx;
        uint64_t e = (uint64_t)((int64_t)c->cols * (y + dy) + x + dx);
        o->addr[tx] = ref ? NW_REF + (base + c->cols + 1 + e) * 4 : NW_MAT + (base + e) * 4;
    }
}

static int nwu_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const nw_launch *a = gk->arg;
    const nw_ctx *c = a->c;
    uint64_t bx = w->block_id;
    uint64_t tbx = a->second ? bx + c->bw - a->i : bx;
    uint64_t tby = a->second ? c->bw - bx - 1 : a->i - 1 - bx;
    uint64_t base = c->cols * 16 * tby + 16 * tbx;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 31; w->v[0]++) {
        /* temp (y-1,x-1), (y,x-1), (y-1,x), ref (y-1,x-1); the maximum; temp (y,x) */
        WC_CO_EMIT(w, nwu_list(c, o, 0x68, WC_OP_LDG, 6, w->v[0], base, false, -1, -1));
        WC_CO_EMIT(w, nwu_list(c, o, 0x70, WC_OP_LDG, 7, w->v[0], base, false, 0, -1));
        WC_CO_EMIT(w, nwu_list(c, o, 0x78, WC_OP_LDG, 8, w->v[0], base, false, -1, 0));
        WC_CO_EMIT(w, nwu_list(c, o, 0x80, WC_OP_LDG, 9, w->v[0], base, true, -1, -1));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x88, nw_step_mask(w->v[0]), 6, 6, 9));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x90, nw_step_mask(w->v[0]), 7, 7, 8));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x98, nw_step_mask(w->v[0]), 6, 6, 7));
        WC_CO_EMIT(w, nwu_list(c, o, 0xa0, WC_OP_STG, 6, w->v[0], base, false, 0, 0));
        WC_CO_EMIT(w, wc_gen_bar(o, 0xa8));
    }
    WC_CO_END(w);
}

typedef struct nw_prog {
    nw_ctx c;
    nw_launch l;
} nw_prog;

static int nw_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    nw_prog *h = ctx;
    uint64_t bw = h->c.bw;
    if (idx >= 2 * bw - 1) return 0;
    h->l.c = &h->c;
    h->l.second = idx >= bw;
    h->l.i = h->l.second ? bw - 1 - (idx - bw) : idx + 1;
    out->arg = &h->l;
    snprintf(out->k.name, sizeof out->k.name,
             h->l.second ? "needle_cuda_shared_2" : "needle_cuda_shared_1");
    out->k.block = (wc_dim3){16, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)h->l.i, 1, 1};
    out->k.shmem_bytes = h->c.unshared ? 0 : (17 * 17 + 16 * 16) * 4;
    out->k.regs_per_thread = 24;
    out->next = h->c.unshared ? nwu_next : nw_next;
    return 1;
}

static wc_source *open_nw(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t n, shared;
    if (wc_params_u64(p, "size", 2048, 16, 1u << 16, &n, err) < 0 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0)
        return NULL;
    if (n % 16) {
        wc_errf(err, "workload rodinia/nw: parameter size must be a multiple of 16");
        return NULL;
    }
    nw_prog *h = calloc(1, sizeof *h);
    if (!h) {
        wc_errf(err, "nw: out of memory");
        return NULL;
    }
    h->c.n = n;
    h->c.cols = n + 1;
    h->c.bw = n / 16;
    h->c.unshared = shared == 0;
    wc_gen_program prog = {.ctx = h, .kernel = nw_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_nw = {
    .name = "rodinia/nw",
    .suite = "rodinia",
    .kernels = "needle_cuda_shared_1 x size/16, needle_cuda_shared_2 x size/16-1",
    .size = "size=2048 (cols=2049)",
    .classes = "001:CNF 002:streaming",
    .help = "Rodinia nw wavefront; size (multiple of 16, matrix is size+1 square), shared (0: "
            "seed 004's unshared NW/U, the wavefront in global memory)",
    .open = open_nw,
};
WC_PLUGIN(workload, wc_wl_rodinia_nw, 350);
