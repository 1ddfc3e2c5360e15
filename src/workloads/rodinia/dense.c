/*
 * dense.c - Rodinia's dense, data-independent kernels with shared-memory
 * tiles: backprop, gaussian, lud.  Facts from ../shared/specs/workloads.md
 * (Rodinia) and the launch loops of the original host code.
 *
 * backprop (default 65536 inputs, 16 hidden): bpnn_layerforward_CUDA and
 * bpnn_adjust_weights_cuda, grid (1, inputs/16), block (16,16);
 * index = 17*16*by + 17*ty + tx + 18.  layerforward: tx==0 loads
 * input[16*by+ty+1], all load weights[index], reduce in shared memory
 * (4 levels), store weights[index], tx==0 store partial[by*16+ty].
 * adjust: delta[tx+1], ly[16*by+ty+1], oldw[index], w[index], store w; the
 * pointers are not __restrict__, so the store to w may alias the inputs and
 * oldw's statement loads delta, ly and oldw again before it stores oldw;
 * block 0's ty==0 threads also update w/oldw[tx+1] (delta, oldw, w, store w,
 * delta and oldw again, store oldw).
 * Arrays: 0 input, 1 weights (w), 2 partial sums, 3 delta, 4 oldw.
 * Approximated: one ALU instruction per modelled arithmetic step; alu=K
 * (default 1) makes each of them K dependent instructions (the compiled
 * kernels' index arithmetic, the reduction's __powf and the adjust kernel's
 * double-precision ETA/MOMENTUM terms are several each: seed 001's Table 1
 * counts 5.2x the default's instructions at Rodinia's input).
 *
 * backprop shared=0 (seed 004's "unshared" /U, 004_0fcfedff3b0ef5ba.txt
 * section 4, Table 3): layerforward works on weights[] in global memory
 * instead of the tiles input_node[16] and weight_matrix[16][16]
 * (weight_matrix[ty][tx] is weights[index], input_node[ty] is
 * input[16*by+ty+1]): every thread loads weights[index] and
 * input[16*by+ty+1], multiplies and stores weights[index]; each of the 4
 * reduction levels' rows (ty % 2^i == 0) loads weights[index] and
 * weights[index + 17*2^(i-1)] and stores weights[index]; tx==0 loads
 * weights at (0, ty) and stores the partial sum.  The barriers after the
 * product and after each level stay; the write-back of the tile (it is the
 * array now) goes.  adjust uses no shared memory and is unchanged.
 *
 * gaussian (size S; default 256 - the original's -s option, see
 * docs/workloads-irregular.md): for t < S-1: Fan1<<<ceil(S/512),512>>>
 * (m[S*(i+t+1)+t] = a[S*(i+t+1)+t] / a[S*t+t] for i < S-1-t) and
 * Fan2<<<(ceil(S/4))^2, (4,4)>>> (x = 4bx+tx, y = 4by+ty; x < S-1-t, y < S-t:
 * loads m[S*(x+1+t)+t], a[S*t+y+t], a[S*(x+1+t)+y+t], stores the latter;
 * y == 0 also updates b[x+1+t] from m and b[t]).  Arrays: 0 a, 1 m, 2 b.
 *
 * lud (default 256, BLOCK 16): for i = 0, 16, .. < S-16: lud_diagonal<<<1,16>>>,
 * lud_perimeter<<<(S-i)/16-1, 32>>> (the two half-warps diverge: rows then
 * columns, so each is its own 16-lane instruction), lud_internal<<<(n,n),
 * (16,16)>>>; a final lud_diagonal.  Array: 0 m.
 *
 * lud shared=0 (seed 004's "unshared" /U): the three kernels work on m in
 * global memory instead of the tiles (shadow/dia[r][c] is m(off+r, off+c),
 * peri_row[r][c] m(off+r, gcol+c), peri_col[r][c] m(grow+r, off+c), with
 * m(y, x) = m[y*S + x], gcol/grow = off + 16*(bx+1) in perimeter, 16*(bx+1)
 * and 16*(by+1) past off in internal).  Every operand read is a load; the
 * element being updated is loaded once before its inner loop and stored
 * once after it (held in a register across j).  The staging loads and the
 * copies back go.  Diagonal: for i < 15, lanes tx > i compute column i
 * (target m(tx,i); j < i: m(tx,j), m(j,i); then m(i,i), the division),
 * barrier, then row i+1 (target m(i+1,tx); j <= i: m(i+1,j), m(j,tx)),
 * barrier.  Perimeter, row half: for i = 1..15 target peri_row[i][idx],
 * j < i: dia[i][j], peri_row[j][idx]; column half: for i < 16 target
 * peri_col[idx][i], j < i: peri_col[idx][j], dia[j][i], then dia[i][i];
 * the halves touch disjoint tiles (dia is only read), so no barrier.
 * Internal: for i < 16 peri_col[ty][i], peri_row[i][tx], then the target;
 * no barrier.  (In the shared form the triangular solves are ALU work
 * only, see above: the /U form has more instructions, so compare the two
 * by cycles.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

/* ---- backprop --------------------------------------------------------- */

#define BP_IN    WC_GEN_REGION(0)
#define BP_W     WC_GEN_REGION(1)
#define BP_PART  WC_GEN_REGION(2)
#define BP_DELTA WC_GEN_REGION(3)
#define BP_OLDW  WC_GEN_REGION(4)

typedef struct bp_ctx {
    uint64_t in;
    int64_t alu;   /* instructions per modelled arithmetic step (alu=K) */
    bool unshared; /* shared=0: backprop/U */
} bp_ctx;

/* One modelled arithmetic step as alu dependent instructions, counted in
 * w->v[7] (the kernels' loops use v[0] and v[1]): the first reads s1, s2,
 * the rest the value before them. */
#define BP_ALU(w, o, c, pc, m, dst, s1, s2)                                                        \
    for ((w)->v[7] = 0; (w)->v[7] < (c)->alu; (w)->v[7]++)                                         \
    WC_CO_EMIT(                                                                                    \
        w, wc_gen_alu(o, pc, m, dst, (w)->v[7] ? (dst) : (s1), (w)->v[7] ? WC_REG_NONE : (s2)))

/* which: 0 weights index, 1 input index_in, 2 partial by*16+ty, 3 delta tx+1,
 * 4 ly 16*by+ty+1, 5 weights at (0, ty) (the /U partial-sum read) */
static void bp_list(const wc_gen_warp *w, wc_winst *o, uint64_t pc, wc_opclass op, uint32_t m,
                    unsigned reg, int which, uint64_t arr)
{
    wc_gen_mem_list(o, pc, op, m, reg, 2, 4);
    uint64_t by = w->bid.y;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t tx = l & 15, ty = 2 * w->warp + (l >> 4), e;
        switch (which) {
        case 0: e = 17 * 16 * by + 17 * ty + tx + 18; break;
        case 1: e = 16 * by + ty + 1; break;
        case 2: e = by * 16 + ty; break;
        case 3: e = tx + 1; break;
        case 5: e = 17 * 16 * by + ty + 18; break;
        default: e = 16 * by + ty + 1; break;
        }
        o->addr[l] = arr + e * 4;
    }
}

static int bp_forward_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bp_ctx *c = gk->arg;
    const uint32_t all = 0xffffffffu, tx0 = 0x00010001u;
    WC_CO_BEGIN(w);
    BP_ALU(w, o, c, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE);
    WC_CO_EMIT(w, bp_list(w, o, 0x10, WC_OP_LDG, tx0, 1, 1, BP_IN));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, tx0, 1, WC_REG_NONE, 4, 0, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
    WC_CO_EMIT(w, bp_list(w, o, 0x28, WC_OP_LDG, all, 3, 0, BP_W));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STS, all, 3, WC_REG_NONE, 4, 64, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x38));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_LDS, all, 4, WC_REG_NONE, 4, 64, 4));
    BP_ALU(w, o, c, 0x48, all, 3, 3, 4);
    WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_STS, all, 3, WC_REG_NONE, 4, 64, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x58));
    for (w->v[0] = 1; w->v[0] <= 4; w->v[0]++) {
        /* ty % 2^i == 0: rows 2w, 2w+1 of the warp */
        w->v[1] = (((2 * w->warp) % (1u << w->v[0])) == 0 ? 0xffffu : 0) |
                  (((2 * w->warp + 1) % (1u << w->v[0])) == 0 ? 0xffff0000u : 0);
        if (w->v[1]) {
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x60, WC_OP_LDS, (uint32_t)w->v[1], 4, WC_REG_NONE, 4, 64, 4));
            BP_ALU(w, o, c, 0x68, (uint32_t)w->v[1], 3, 3, 4);
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x70, WC_OP_STS, (uint32_t)w->v[1], 3, WC_REG_NONE, 4, 64, 4));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x78));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_LDS, all, 3, WC_REG_NONE, 4, 64, 4));
    WC_CO_EMIT(w, bp_list(w, o, 0x88, WC_OP_STG, all, 3, 0, BP_W));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x90));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x98, WC_OP_LDS, tx0, 5, WC_REG_NONE, 4, 64, 68));
    WC_CO_EMIT(w, bp_list(w, o, 0xa0, WC_OP_STG, tx0, 5, 2, BP_PART));
    WC_CO_END(w);
}

/* Lanes of warp w whose row ty = 2w + (l >> 4) takes part in reduction
 * level i (1..4): ty % 2^i == 0. */
static uint32_t bp_level_mask(const wc_gen_warp *w, int64_t i)
{
    uint32_t p = 1u << i;
    return ((2 * w->warp) % p == 0 ? 0xffffu : 0) | ((2 * w->warp + 1) % p == 0 ? 0xffff0000u : 0);
}

/* layerforward/U: the reduction on weights[] in global memory. */
static int bp_forward_u_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bp_ctx *c = gk->arg;
    const uint32_t all = 0xffffffffu, tx0 = 0x00010001u;
    WC_CO_BEGIN(w);
    BP_ALU(w, o, c, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE);
    WC_CO_EMIT(w, bp_list(w, o, 0x28, WC_OP_LDG, all, 3, 0, BP_W));
    WC_CO_EMIT(w, bp_list(w, o, 0x10, WC_OP_LDG, all, 1, 1, BP_IN));
    BP_ALU(w, o, c, 0x48, all, 3, 3, 1);
    WC_CO_EMIT(w, bp_list(w, o, 0x50, WC_OP_STG, all, 3, 0, BP_W));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x58));
    for (w->v[0] = 1; w->v[0] <= 4; w->v[0]++) {
        w->v[1] = bp_level_mask(w, w->v[0]);
        if (w->v[1]) {
            WC_CO_EMIT(w, bp_list(w, o, 0x60, WC_OP_LDG, (uint32_t)w->v[1], 3, 0, BP_W));
            /* the partner row ty + 2^(i-1): index + 17 * 2^(i-1) */
            WC_CO_EMIT(w, {
                bp_list(w, o, 0x64, WC_OP_LDG, (uint32_t)w->v[1], 4, 0, BP_W);
                for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                    o->addr[l] += 17u * 4u * (1u << (w->v[0] - 1));
            });
            BP_ALU(w, o, c, 0x68, (uint32_t)w->v[1], 3, 3, 4);
            WC_CO_EMIT(w, bp_list(w, o, 0x70, WC_OP_STG, (uint32_t)w->v[1], 3, 0, BP_W));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x78));
    }
    WC_CO_EMIT(w, bp_list(w, o, 0x98, WC_OP_LDG, tx0, 5, 5, BP_W));
    WC_CO_EMIT(w, bp_list(w, o, 0xa0, WC_OP_STG, tx0, 5, 2, BP_PART));
    WC_CO_END(w);
}

static int bp_adjust_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bp_ctx *c = gk->arg;
    const uint32_t all = 0xffffffffu;
    bool corner = w->bid.y == 0 && w->warp == 0; /* by == 0, ty == 0: lanes 0-15 */
    WC_CO_BEGIN(w);
    BP_ALU(w, o, c, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE);
    WC_CO_EMIT(w, bp_list(w, o, 0x10, WC_OP_LDG, all, 1, 3, BP_DELTA));
    WC_CO_EMIT(w, bp_list(w, o, 0x18, WC_OP_LDG, all, 3, 4, BP_IN));
    WC_CO_EMIT(w, bp_list(w, o, 0x20, WC_OP_LDG, all, 4, 0, BP_OLDW));
    WC_CO_EMIT(w, bp_list(w, o, 0x28, WC_OP_LDG, all, 5, 0, BP_W));
    BP_ALU(w, o, c, 0x30, all, 6, 1, 3);
    BP_ALU(w, o, c, 0x38, all, 6, 6, 4);
    BP_ALU(w, o, c, 0x40, all, 5, 5, 6);
    WC_CO_EMIT(w, bp_list(w, o, 0x48, WC_OP_STG, all, 5, 0, BP_W));
    /* the store to w may alias delta, ly and oldw (no __restrict__), so the
     * second statement loads them again */
    WC_CO_EMIT(w, bp_list(w, o, 0x50, WC_OP_LDG, all, 1, 3, BP_DELTA));
    WC_CO_EMIT(w, bp_list(w, o, 0x58, WC_OP_LDG, all, 3, 4, BP_IN));
    WC_CO_EMIT(w, bp_list(w, o, 0x60, WC_OP_LDG, all, 4, 0, BP_OLDW));
    BP_ALU(w, o, c, 0x68, all, 6, 1, 3);
    BP_ALU(w, o, c, 0x70, all, 6, 6, 4);
    WC_CO_EMIT(w, bp_list(w, o, 0x78, WC_OP_STG, all, 6, 0, BP_OLDW));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x80));
    if (!corner) break;
    WC_CO_EMIT(w, bp_list(w, o, 0x88, WC_OP_LDG, 0xffffu, 1, 3, BP_DELTA));
    WC_CO_EMIT(w, bp_list(w, o, 0x90, WC_OP_LDG, 0xffffu, 4, 3, BP_OLDW));
    WC_CO_EMIT(w, bp_list(w, o, 0x98, WC_OP_LDG, 0xffffu, 5, 3, BP_W));
    BP_ALU(w, o, c, 0xa0, 0xffffu, 6, 1, 4);
    WC_CO_EMIT(w, bp_list(w, o, 0xa8, WC_OP_STG, 0xffffu, 5, 3, BP_W));
    WC_CO_EMIT(w, bp_list(w, o, 0xb0, WC_OP_LDG, 0xffffu, 1, 3, BP_DELTA));
    WC_CO_EMIT(w, bp_list(w, o, 0xb8, WC_OP_LDG, 0xffffu, 4, 3, BP_OLDW));
    BP_ALU(w, o, c, 0xc0, 0xffffu, 6, 1, 4);
    WC_CO_EMIT(w, bp_list(w, o, 0xc8, WC_OP_STG, 0xffffu, 6, 3, BP_OLDW));
    WC_CO_END(w);
}

static int bp_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    bp_ctx *c = ctx;
    if (idx > 1) return 0;
    out->arg = c;
    out->k.block = (wc_dim3){16, 16, 1};
    out->k.grid = (wc_dim3){1, (uint32_t)(c->in / 16), 1};
    out->k.shmem_bytes = c->unshared ? 0 : (16 + 256) * 4;
    out->k.regs_per_thread = 16;
    snprintf(out->k.name, sizeof out->k.name,
             idx ? "bpnn_adjust_weights_cuda" : "bpnn_layerforward_CUDA");
    out->next = idx ? bp_adjust_next : c->unshared ? bp_forward_u_next : bp_forward_next;
    return 1;
}

static wc_source *open_backprop(wc_params *p, uint64_t seed, wc_err *err)
{
    bp_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "backprop: out of memory");
        return NULL;
    }
    uint64_t shared = 1, alu = 1;
    if (wc_params_u64(p, "inputs", 65536, 16, 1u << 26, &c->in, err) < 0 || c->in % 16 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0 ||
        wc_params_u64(p, "alu", 1, 1, 64, &alu, err) < 0) {
        if (c->in % 16)
            wc_errf(err, "workload rodinia/backprop: parameter inputs must be a multiple of 16");
        free(c);
        return NULL;
    }
    c->unshared = shared == 0;
    c->alu = (int64_t)alu;
    wc_gen_program prog = {.ctx = c, .kernel = bp_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_backprop = {
    .name = "rodinia/backprop",
    .suite = "rodinia",
    .kernels = "bpnn_layerforward_CUDA, bpnn_adjust_weights_cuda",
    .size = "inputs=65536 (16 hidden)",
    .classes = "001:CF 002:friendly",
    .help = "Rodinia backprop; inputs (multiple of 16), shared (0: seed 004's unshared /U, the "
            "layerforward reduction on the weights in global memory), alu (instructions per "
            "arithmetic step)",
    .open = open_backprop,
};
WC_PLUGIN(workload, wc_wl_rodinia_backprop, 370);

/* ---- gaussian --------------------------------------------------------- */

#define GA_A WC_GEN_REGION(0)
#define GA_M WC_GEN_REGION(1)
#define GA_B WC_GEN_REGION(2)

typedef struct ga_ctx {
    uint64_t s, t;
} ga_ctx;

static int ga_fan1_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const ga_ctx *c = gk->arg;
    uint64_t s = c->s, t = c->t, i0 = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(i0, s - 1 - t);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 1, 2, 4, GA_A + (s * (i0 + t + 1) + t) * 4,
                             (int64_t)s * 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, m, 3, 2, 4, GA_A + (s * t + t) * 4, 0));
    WC_CO_EMIT(w, {
        wc_gen_alu(o, 0x20, m, 1, 1, 3);
        o->op = WC_OP_SFU;
    });
    WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, m, 1, 2, 4, GA_M + (s * (i0 + t + 1) + t) * 4,
                             (int64_t)s * 4));
    WC_CO_END(w);
}

/* Fan2 lane addresses: which 0 m[S(x+1+t)+t], 1 a[S t + y+t], 2 a[S(x+1+t)+y+t],
 * 3 b[t], 4 b[x+1+t]. */
static uint32_t ga_fan2_list(const ga_ctx *c, const wc_gen_warp *w, wc_winst *o, uint64_t pc,
                             wc_opclass op, unsigned reg, int which, bool only_y0)
{
    uint64_t s = c->s, t = c->t;
    uint32_t m = 0;
    if (o) wc_gen_mem_list(o, pc, op, 0, reg, 2, 4);
    for (unsigned l = 0; l < 16; l++) {
        uint64_t x = w->bid.x * 4 + l % 4, y = w->bid.y * 4 + l / 4;
        if (x >= s - 1 - t || y >= s - t || (only_y0 && y != 0)) continue;
        m |= 1u << l;
        if (!o) continue;
        uint64_t a;
        switch (which) {
        case 0: a = GA_M + (s * (x + 1 + t) + t) * 4; break;
        case 1: a = GA_A + (s * t + y + t) * 4; break;
        case 2: a = GA_A + (s * (x + 1 + t) + y + t) * 4; break;
        case 3: a = GA_B + t * 4; break;
        default: a = GA_B + (x + 1 + t) * 4; break;
        }
        o->addr[l] = a;
    }
    if (o) o->mask = m;
    return m;
}

static int ga_fan2_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const ga_ctx *c = gk->arg;
    uint32_t m = ga_fan2_list(c, w, NULL, 0, WC_OP_LDG, 0, 0, false);
    uint32_t m0 = ga_fan2_list(c, w, NULL, 0, WC_OP_LDG, 0, 0, true);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffu, 2, WC_REG_NONE, WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x0c, 0xffffu, WC_REG_NONE, 2, WC_REG_NONE));
    if (!m) break;
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x10, WC_OP_LDG, 1, 0, false));
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x18, WC_OP_LDG, 3, 1, false));
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x20, WC_OP_LDG, 4, 2, false));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x28, m, 4, 1, 3));
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x30, WC_OP_STG, 4, 2, false));
    if (!m0) break;
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x38, WC_OP_LDG, 1, 0, true));
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x40, WC_OP_LDG, 5, 3, true));
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x48, WC_OP_LDG, 6, 4, true));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x50, m0, 6, 1, 5));
    WC_CO_EMIT(w, ga_fan2_list(c, w, o, 0x58, WC_OP_STG, 6, 4, true));
    WC_CO_END(w);
}

static int ga_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    ga_ctx *c = ctx;
    if (idx >= 2 * (c->s - 1)) return 0;
    c->t = idx / 2;
    out->arg = c;
    out->k.regs_per_thread = 16;
    if (idx % 2 == 0) {
        snprintf(out->k.name, sizeof out->k.name, "Fan1");
        out->k.block = (wc_dim3){512, 1, 1};
        out->k.grid = (wc_dim3){(uint32_t)((c->s + 511) / 512), 1, 1};
        out->next = ga_fan1_next;
    } else {
        snprintf(out->k.name, sizeof out->k.name, "Fan2");
        out->k.block = (wc_dim3){4, 4, 1};
        uint32_t g = (uint32_t)((c->s + 3) / 4);
        out->k.grid = (wc_dim3){g, g, 1};
        out->next = ga_fan2_next;
    }
    return 1;
}

static wc_source *open_gaussian(wc_params *p, uint64_t seed, wc_err *err)
{
    ga_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "gaussian: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "size", 256, 2, 1u << 15, &c->s, err) < 0) {
        free(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = ga_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_gaussian = {
    .name = "rodinia/gaussian",
    .suite = "rodinia",
    .kernels = "(Fan1, Fan2) x (size-1)",
    .size = "size=256",
    .classes = "000:CLP 001:CI",
    .help = "Rodinia gaussian elimination; size (matrix is size x size)",
    .open = open_gaussian,
};
WC_PLUGIN(workload, wc_wl_rodinia_gaussian, 380);

/* ---- lud --------------------------------------------------------------- */

#define LUD_M WC_GEN_REGION(0)

typedef struct lud_ctx {
    uint64_t s, offset;
    bool unshared; /* shared=0: lud/U */
} lud_ctx;

/* lud/U: lane l reads or writes m(y, x), y = r0 + rx*(l&15) + ry*(l>>4),
 * x = c0 + cx*(l&15) + cy*(l>>4). */
static void lud_u(const lud_ctx *c, wc_winst *o, uint64_t pc, wc_opclass op, uint32_t mask,
                  unsigned reg, uint64_t r0, uint64_t rx, uint64_t ry, uint64_t c0, uint64_t cx,
                  uint64_t cy)
{
    wc_gen_mem_list(o, pc, op, mask, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t a = l & 15, b = l >> 4;
        o->addr[l] = LUD_M + ((r0 + rx * a + ry * b) * c->s + c0 + cx * a + cy * b) * 4;
    }
}

/* lud_diagonal/U; v[0] = i, v[1] = j, v[2] = lanes tx > i. */
static int lud_diag_u_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lud_ctx *c = gk->arg;
    uint64_t f = c->offset;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 15; w->v[0]++) {
        w->v[2] = (int64_t)(0xffffu & ~((2u << w->v[0]) - 1u));
#define I ((uint64_t)w->v[0])
#define J ((uint64_t)w->v[1])
#define M ((uint32_t)w->v[2])
        WC_CO_EMIT(w, lud_u(c, o, 0x10, WC_OP_LDG, M, 3, f, 1, 0, f + I, 0, 0)); /* m(tx,i) */
        for (w->v[1] = 0; w->v[1] < w->v[0]; w->v[1]++) {
            WC_CO_EMIT(w, lud_u(c, o, 0x18, WC_OP_LDG, M, 4, f, 1, 0, f + J, 0, 0)); /* m(tx,j) */
            WC_CO_EMIT(w, lud_u(c, o, 0x20, WC_OP_LDG, M, 5, f + J, 0, 0, f + I, 0, 0));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x28, M, 3, 4, 5));
        }
        WC_CO_EMIT(w, lud_u(c, o, 0x2c, WC_OP_LDG, M, 5, f + I, 0, 0, f + I, 0, 0)); /* m(i,i) */
        WC_CO_EMIT(w, wc_gen_alu(o, 0x30, M, 3, 3, 5));
        WC_CO_EMIT(w, lud_u(c, o, 0x34, WC_OP_STG, M, 3, f, 1, 0, f + I, 0, 0));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x38));
        WC_CO_EMIT(w, lud_u(c, o, 0x3c, WC_OP_LDG, M, 3, f + I + 1, 0, 0, f, 1, 0)); /* m(i+1,tx) */
        for (w->v[1] = 0; w->v[1] <= w->v[0]; w->v[1]++) {
            WC_CO_EMIT(w, lud_u(c, o, 0x40, WC_OP_LDG, M, 4, f + I + 1, 0, 0, f + J, 0, 0));
            WC_CO_EMIT(w, lud_u(c, o, 0x44, WC_OP_LDG, M, 5, f + J, 0, 0, f, 1, 0)); /* m(j,tx) */
            WC_CO_EMIT(w, wc_gen_alu(o, 0x48, M, 3, 4, 5));
        }
        WC_CO_EMIT(w, lud_u(c, o, 0x4c, WC_OP_STG, M, 3, f + I + 1, 0, 0, f, 1, 0));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x50));
    }
    WC_CO_END(w);
}

/* lud_perimeter/U: lanes 0-15 the row tile, then lanes 16-31 the column
 * tile (idx = lane & 15); gc = off + 16*(bx+1) is the tiles' other index. */
static int lud_peri_u_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lud_ctx *c = gk->arg;
    uint64_t f = c->offset, gc = f + 16 * (w->block_id + 1);
    const uint32_t lo = 0xffffu, hi = 0xffff0000u;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 1; w->v[0] < 16;
         w->v[0]++) { /* peri_row[i][idx] -= dia[i][j]*peri_row[j][idx] */
        WC_CO_EMIT(w, lud_u(c, o, 0x10, WC_OP_LDG, lo, 3, f + I, 0, 0, gc, 1, 0));
        for (w->v[1] = 0; w->v[1] < w->v[0]; w->v[1]++) {
            WC_CO_EMIT(w, lud_u(c, o, 0x18, WC_OP_LDG, lo, 4, f + I, 0, 0, f + J, 0, 0));
            WC_CO_EMIT(w, lud_u(c, o, 0x20, WC_OP_LDG, lo, 5, f + J, 0, 0, gc, 1, 0));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x28, lo, 3, 4, 5));
        }
        WC_CO_EMIT(w, lud_u(c, o, 0x30, WC_OP_STG, lo, 3, f + I, 0, 0, gc, 1, 0));
    }
    for (w->v[0] = 0; w->v[0] < 16;
         w->v[0]++) { /* peri_col[idx][i] -= peri_col[idx][j]*dia[j][i] */
        WC_CO_EMIT(w, lud_u(c, o, 0x50, WC_OP_LDG, hi, 3, gc, 1, 0, f + I, 0, 0));
        for (w->v[1] = 0; w->v[1] < w->v[0]; w->v[1]++) {
            WC_CO_EMIT(w, lud_u(c, o, 0x58, WC_OP_LDG, hi, 4, gc, 1, 0, f + J, 0, 0));
            WC_CO_EMIT(w, lud_u(c, o, 0x60, WC_OP_LDG, hi, 5, f + J, 0, 0, f + I, 0, 0));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x68, hi, 3, 4, 5));
        }
        WC_CO_EMIT(w,
                   lud_u(c, o, 0x70, WC_OP_LDG, hi, 5, f + I, 0, 0, f + I, 0, 0)); /* dia[i][i] */
        WC_CO_EMIT(w, wc_gen_alu(o, 0x78, hi, 3, 3, 5));
        WC_CO_EMIT(w, lud_u(c, o, 0x80, WC_OP_STG, hi, 3, gc, 1, 0, f + I, 0, 0));
    }
    WC_CO_END(w);
}

/* lud_internal/U: ty = 2*warp + (lane >> 4), tx = lane & 15. */
static int lud_int_u_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lud_ctx *c = gk->arg;
    const uint32_t all = 0xffffffffu;
    uint64_t f = c->offset, ty0 = 2 * (uint64_t)w->warp;
    uint64_t grow = f + (w->bid.y + 1) * 16, gcol = f + (w->bid.x + 1) * 16;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 16; w->v[0]++) {
        WC_CO_EMIT(w, lud_u(c, o, 0x38, WC_OP_LDG, all, 4, grow + ty0, 0, 1, f + I, 0, 0));
        WC_CO_EMIT(w, lud_u(c, o, 0x40, WC_OP_LDG, all, 5, f + I, 0, 0, gcol, 1, 0));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x48, all, 6, 4, 5));
    }
#undef I
#undef J
#undef M
    WC_CO_EMIT(w, lud_u(c, o, 0x50, WC_OP_LDG, all, 7, grow + ty0, 0, 1, gcol, 1, 0));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x58, all, 7, 7, 6));
    WC_CO_EMIT(w, lud_u(c, o, 0x60, WC_OP_STG, all, 7, grow + ty0, 0, 1, gcol, 1, 0));
    WC_CO_END(w);
}

static int lud_diag_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lud_ctx *c = gk->arg;
    uint64_t s = c->s, off = c->offset;
    const uint32_t all = 0xffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 16; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, all, 1, 2, 4,
                                 LUD_M + ((off + (uint64_t)w->v[0]) * s + off) * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, all, 1, WC_REG_NONE, 4, 0, 4));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
    for (w->v[0] = 0; w->v[0] < 15; w->v[0]++) {
        w->v[2] = (int64_t)(all & ~((2u << w->v[0]) - 1u)); /* tx > i */
        for (w->v[1] = 0; w->v[1] <= w->v[0]; w->v[1]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x28, (uint32_t)w->v[2], 3, 3, 1));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
        for (w->v[1] = 0; w->v[1] <= w->v[0]; w->v[1]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x38, (uint32_t)w->v[2], 3, 3, 1));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x40));
    }
    for (w->v[0] = 1; w->v[0] < 16; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_LDS, all, 4, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_STG, all, 4, 2, 4,
                                 LUD_M + ((off + (uint64_t)w->v[0]) * s + off) * 4, 4));
    }
    WC_CO_END(w);
}

/* Current half's lanes and the base shift that gives lane 16 element idx 0
 * (macros, not locals: the half changes inside the coroutine). */
#define LUD_HM(w)    ((w)->v[3] ? 0xffff0000u : 0xffffu)
#define LUD_SHIFT(w) ((w)->v[3] ? 16u * 4u : 0u)

static int lud_peri_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lud_ctx *c = gk->arg;
    uint64_t s = c->s, off = c->offset, bx = w->block_id;
    /* half h (v[3]): 0 = lanes 0-15 (peri_row), 1 = lanes 16-31 (peri_col);
     * for half 1 the stride base is shifted so lane 16 gets idx 0 */
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[3] = 0; w->v[3] < 2; w->v[3]++) {
        for (w->v[0] = 0; w->v[0] < 8; w->v[0]++) /* dia rows 0-7 or 8-15 */
            WC_CO_EMIT(
                w, wc_gen_mem(o, 0x10 + 0x40 * (uint64_t)w->v[3], WC_OP_LDG, LUD_HM(w), 1, 2, 4,
                              LUD_M + ((off + (uint64_t)(w->v[0] + 8 * w->v[3])) * s + off) * 4 -
                                  LUD_SHIFT(w),
                              4));
        for (w->v[0] = 0; w->v[0] < 16; w->v[0]++) {
            if (!w->v[3])
                WC_CO_EMIT(
                    w, wc_gen_mem(o, 0x18, WC_OP_LDG, LUD_HM(w), 3, 2, 4,
                                  LUD_M + ((off + (uint64_t)w->v[0]) * s + off + (bx + 1) * 16) * 4,
                                  4));
            else
                WC_CO_EMIT(
                    w,
                    wc_gen_mem(o, 0x58, WC_OP_LDG, LUD_HM(w), 3, 2, 4,
                               LUD_M + ((off + (bx + 1) * 16 + (uint64_t)w->v[0]) * s + off) * 4 -
                                   LUD_SHIFT(w),
                               4));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STS, LUD_HM(w), 3, WC_REG_NONE, 4, 1024, 4));
        }
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x28));
    for (w->v[3] = 0; w->v[3] < 2; w->v[3]++)
        for (w->v[0] = 1; w->v[0] < 16; w->v[0]++)
            for (w->v[1] = 0; w->v[1] < w->v[0]; w->v[1]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x30, LUD_HM(w), 3, 3, 1));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x38));
    for (w->v[3] = 0; w->v[3] < 2; w->v[3]++) {
        for (w->v[0] = 1 - w->v[3]; w->v[0] < 16; w->v[0]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_LDS, LUD_HM(w), 4, WC_REG_NONE, 4, 1024, 4));
            if (!w->v[3])
                WC_CO_EMIT(
                    w, wc_gen_mem(o, 0x48, WC_OP_STG, LUD_HM(w), 4, 2, 4,
                                  LUD_M + ((off + (uint64_t)w->v[0]) * s + off + (bx + 1) * 16) * 4,
                                  4));
            else
                WC_CO_EMIT(
                    w,
                    wc_gen_mem(o, 0x98, WC_OP_STG, LUD_HM(w), 4, 2, 4,
                               LUD_M + ((off + (bx + 1) * 16 + (uint64_t)w->v[0]) * s + off) * 4 -
                                   LUD_SHIFT(w),
                               4));
        }
    }
    WC_CO_END(w);
}

/* internal: which 0 peri_row m[(off+ty)*S + gcol+tx], 1 peri_col
 * m[(grow+ty)*S + off+tx], 2 m[(grow+ty)*S + gcol+tx] */
static void lud_int_list(const lud_ctx *c, const wc_gen_warp *w, wc_winst *o, uint64_t pc,
                         wc_opclass op, unsigned reg, int which)
{
    uint64_t s = c->s, off = c->offset;
    uint64_t grow = off + (w->bid.y + 1) * 16, gcol = off + (w->bid.x + 1) * 16;
    wc_gen_mem_list(o, pc, op, 0xffffffffu, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t tx = l & 15, ty = 2 * w->warp + (l >> 4), e;
        if (which == 0)
            e = (off + ty) * s + gcol + tx;
        else if (which == 1)
            e = (grow + ty) * s + off + tx;
        else
            e = (grow + ty) * s + gcol + tx;
        o->addr[l] = LUD_M + e * 4;
    }
}

static int lud_int_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lud_ctx *c = gk->arg;
    const uint32_t all = 0xffffffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    WC_CO_EMIT(w, lud_int_list(c, w, o, 0x10, WC_OP_LDG, 1, 0));
    WC_CO_EMIT(w, lud_int_list(c, w, o, 0x18, WC_OP_LDG, 3, 1));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STS, all, 1, WC_REG_NONE, 4, 0, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STS, all, 3, WC_REG_NONE, 4, 1024, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
    for (w->v[0] = 0; w->v[0] < 16; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDS, all, 4, WC_REG_NONE, 4, 1024, 0));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_LDS, all, 5, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x48, all, 6, 4, 5));
    }
    WC_CO_EMIT(w, lud_int_list(c, w, o, 0x50, WC_OP_LDG, 7, 2));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x58, all, 7, 7, 6));
    WC_CO_EMIT(w, lud_int_list(c, w, o, 0x60, WC_OP_STG, 7, 2));
    WC_CO_END(w);
}

static int lud_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    lud_ctx *c = ctx;
    uint64_t steps = c->s / 16 - 1; /* i = 0, 16, .. < S-16 */
    if (idx > 3 * steps) return 0;
    c->offset = 16 * (idx / 3);
    out->arg = c;
    out->k.regs_per_thread = 24;
    uint32_t n = (uint32_t)((c->s - c->offset) / 16 - 1);
    switch (idx % 3) {
    case 0:
        snprintf(out->k.name, sizeof out->k.name, "lud_diagonal");
        out->k.block = (wc_dim3){16, 1, 1};
        out->k.grid = (wc_dim3){1, 1, 1};
        out->k.shmem_bytes = c->unshared ? 0 : 16 * 16 * 4;
        out->next = c->unshared ? lud_diag_u_next : lud_diag_next;
        break;
    case 1:
        snprintf(out->k.name, sizeof out->k.name, "lud_perimeter");
        out->k.block = (wc_dim3){32, 1, 1};
        out->k.grid = (wc_dim3){n, 1, 1};
        out->k.shmem_bytes = c->unshared ? 0 : 3 * 16 * 16 * 4;
        out->next = c->unshared ? lud_peri_u_next : lud_peri_next;
        break;
    default:
        snprintf(out->k.name, sizeof out->k.name, "lud_internal");
        out->k.block = (wc_dim3){16, 16, 1};
        out->k.grid = (wc_dim3){n, n, 1};
        out->k.shmem_bytes = c->unshared ? 0 : 2 * 16 * 16 * 4;
        out->next = c->unshared ? lud_int_u_next : lud_int_next;
        break;
    }
    return 1;
}

static wc_source *open_lud(wc_params *p, uint64_t seed, wc_err *err)
{
    lud_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "lud: out of memory");
        return NULL;
    }
    uint64_t shared = 1;
    if (wc_params_u64(p, "size", 256, 16, 1u << 15, &c->s, err) < 0 || c->s % 16 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0) {
        if (c->s % 16)
            wc_errf(err, "workload rodinia/lud: parameter size must be a multiple of 16");
        free(c);
        return NULL;
    }
    c->unshared = shared == 0;
    wc_gen_program prog = {.ctx = c, .kernel = lud_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_lud = {
    .name = "rodinia/lud",
    .suite = "rodinia",
    .kernels = "(lud_diagonal, lud_perimeter, lud_internal) x (size/16-1), lud_diagonal",
    .size = "size=256",
    .classes = "001:CNF",
    .help = "Rodinia lud (16x16 blocks); size (multiple of 16), shared (0: seed 004's unshared "
            "/U, the three kernels on the matrix in global memory)",
    .open = open_lud,
};
WC_PLUGIN(workload, wc_wl_rodinia_lud, 390);
