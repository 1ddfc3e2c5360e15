/*
 * gen.h - the framework built-in workloads are written in.
 *
 * A generated program is a sequence of kernel launches; each launch names a
 * `next` function that produces, on demand, the next warp instruction of one
 * warp from a small per-warp state (a program counter `state` and loop
 * variables v[]).  gen.c wraps a program into a wc_source, so the engine and
 * the reuse-distance model consume built-in kernels exactly like traces.
 *
 * Writing a kernel: compute each lane's thread coordinates with
 * wc_gen_thread(), emit loads/stores with wc_gen_mem() (stride mode) or
 * wc_gen_mem_list() (arbitrary per-lane addresses), ALU work with
 * wc_gen_alu(), and return 0 when the warp has finished.
 */
#ifndef WC_WORKLOADS_GEN_H
#define WC_WORKLOADS_GEN_H

#include "warpcache/trace.h"
#include "warpcache/workloads.h"

typedef struct wc_gen_warp {
    wc_dim3 bid;       /* block coordinates */
    uint64_t block_id; /* linear block id */
    uint32_t warp;     /* warp within the block */
    uint32_t live;     /* lanes that exist (the last warp of a block may be partial) */
    uint32_t state;    /* generator-defined program counter, starts at 0 */
    int64_t v[8];      /* generator-defined loop variables, start at 0 */
} wc_gen_warp;

typedef struct wc_gen_kernel wc_gen_kernel;
struct wc_gen_kernel {
    wc_kernel k;     /* name, grid, block, shmem, registers */
    const void *arg; /* generator data for this launch (owned by the program) */
    int (*next)(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *out);
};

typedef struct wc_gen_program {
    void *ctx;
    /* Fills launch number idx (0-based): 1, or 0 past the last launch. */
    int (*kernel)(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err);
    void (*destroy)(void *ctx);
} wc_gen_program;

/* Takes ownership of prog->ctx (destroyed with the source). */
wc_source *wc_gen_source_create(const wc_gen_program *prog, wc_err *err);

/* Thread coordinates of lane `lane` of warp w in a block of shape `block`. */
static inline wc_dim3 wc_gen_thread(const wc_gen_kernel *gk, const wc_gen_warp *w, unsigned lane)
{
    return wc_dim3_unlinear(gk->k.block, (uint64_t)w->warp * WC_WARP_SIZE + lane);
}

/* The instruction builders are inline: a generator emits one instruction
 * per call of the source's next_inst, and the calls cost as much as the
 * building (polybench/atax, micro/stream).  gen_start sets every field
 * wc_winst_clear sets, as wc_winst_clear would, then the instruction's own;
 * the builders' results are those of the out-of-line versions they replace
 * (tests/test_gen_builders.c compares them with wc_winst_clear and the
 * field writes, on garbage-filled instructions). */
static inline void wc_gen_start(wc_winst *o, uint64_t pc, uint32_t mask, wc_opclass op)
{
    o->pc = pc;
    o->mask = mask;
    o->op = (uint8_t)op;
    o->width = 0;
    o->flags = 0;
    o->amode = WC_ADDR_NONE;
    o->ndst = 0;
    o->nsrc = 0;
    o->base = 0;
    o->stride = 0;
}

/* Non-memory instruction writing dst (or WC_REG_NONE) from up to two sources. */
static inline void wc_gen_alu(wc_winst *o, uint64_t pc, uint32_t mask, unsigned dst, unsigned s0,
                              unsigned s1)
{
    wc_gen_start(o, pc, mask, WC_OP_ALU);
    if (dst != WC_REG_NONE) o->dst[o->ndst++] = (uint16_t)dst;
    if (s0 != WC_REG_NONE) o->src[o->nsrc++] = (uint16_t)s0;
    if (s1 != WC_REG_NONE) o->src[o->nsrc++] = (uint16_t)s1;
}

static inline void wc_gen_mem_common(wc_winst *o, uint64_t pc, wc_opclass op, uint32_t mask,
                                     unsigned reg, unsigned areg, unsigned width)
{
    wc_gen_start(o, pc, mask, op);
    o->width = (uint8_t)width;
    if (op == WC_OP_ATOM) o->flags |= WC_INST_NO_L1_ALLOC;
    if (wc_op_is_load(op)) {
        if (reg != WC_REG_NONE) o->dst[o->ndst++] = (uint16_t)reg;
    } else if (reg != WC_REG_NONE) {
        o->src[o->nsrc++] = (uint16_t)reg;
    }
    if (areg != WC_REG_NONE) o->src[o->nsrc++] = (uint16_t)areg;
}

/* Memory instruction, lane l at base + l*stride.  For loads `reg` is the
 * destination, for stores the data source; `areg` is the address register. */
static inline void wc_gen_mem(wc_winst *o, uint64_t pc, wc_opclass op, uint32_t mask, unsigned reg,
                              unsigned areg, unsigned width, uint64_t base, int64_t stride)
{
    wc_gen_mem_common(o, pc, op, mask, reg, areg, width);
    o->amode = WC_ADDR_STRIDE;
    o->base = base;
    o->stride = stride;
}

/* Same with per-lane addresses: the caller fills o->addr[] for active lanes. */
static inline void wc_gen_mem_list(wc_winst *o, uint64_t pc, wc_opclass op, uint32_t mask,
                                   unsigned reg, unsigned areg, unsigned width)
{
    wc_gen_mem_common(o, pc, op, mask, reg, areg, width);
    o->amode = WC_ADDR_LIST;
}

/* Barrier. */
static inline void wc_gen_bar(wc_winst *o, uint64_t pc)
{
    wc_gen_start(o, pc, 0xffffffffu, WC_OP_BAR);
}

/* A single-kernel program whose launch is fixed: convenience for micro workloads.
 * `arg` is copied (arg_size bytes) and freed with the source. */
wc_source *wc_gen_single(const wc_gen_kernel *gk, const void *arg, size_t arg_size, wc_err *err);

/* ---- helpers for longer kernels (added with the Rodinia/Parboil/Lonestar
 * workloads; additive) ------------------------------------------------------
 *
 * Resumable kernel bodies.  A `next` function written as
 *
 *     WC_CO_BEGIN(w);
 *     for (w->v[0] = 0; w->v[0] < n; w->v[0]++) {
 *         WC_CO_EMIT(w, wc_gen_mem(o, ...));
 *         WC_CO_EMIT(w, wc_gen_alu(o, ...));
 *     }
 *     WC_CO_END(w);
 *
 * returns one instruction per call and resumes after the EMIT it stopped at
 * (a switch on w->state, one case per EMIT line).  Only w->v[] and w->state
 * survive between calls: locals must be recomputed from them, and at most one
 * EMIT may appear per source line. */
#define WC_CO_BEGIN(w)                                                                             \
    switch ((w)->state) {                                                                          \
    case 0:
#define WC_CO_EMIT(w, ...)                                                                         \
    do {                                                                                           \
        __VA_ARGS__;                                                                               \
        (w)->state = __LINE__;                                                                     \
        return 1;                                                                                  \
    case __LINE__:;                                                                                \
    } while (0)
#define WC_CO_END(w)                                                                               \
    }                                                                                              \
    (w)->state = UINT32_MAX;                                                                       \
    return 0

/* Base address of a workload's array number k (0, 1, ...): arrays live 4 GiB
 * apart so no array can run into another whatever the problem size. */
#define WC_GEN_REGION(k) (((uint64_t)(k) + 1u) << 32)

/* Lanes l of a warp whose first thread is `first` with first + l < n. */
static inline uint32_t wc_gen_mask_below(uint64_t first, uint64_t n)
{
    if (first >= n) return 0;
    uint64_t left = n - first;
    return left >= WC_WARP_SIZE ? 0xffffffffu : (uint32_t)((1u << left) - 1u);
}

#endif
