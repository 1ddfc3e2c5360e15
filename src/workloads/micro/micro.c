/*
 * micro.c - micro-workloads for testing the simulator and the model:
 *
 *   micro/stream       out[tid] = in[tid]           (fully coalesced copy)
 *   micro/stride       out[tid] = in[tid * stride]  (stride in elements)
 *   micro/colcopy      seed 003, Figure 3 (003_ffafd1cb931cbd21.txt, section 4.4):
 *                      one block of H threads; thread t reads its own row
 *                      in[t*W + i], i < W, sequentially (uncoalesced across lanes,
 *                      line locality within each thread).
 *
 * Registers: r1 data, r2 address, r3 accumulator.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/gen.h"

#define ARRAY_IN  0x10000000ull
#define ARRAY_OUT 0x50000000ull

typedef struct copy_arg {
    uint64_t n, stride;
} copy_arg;

/* stream / stride: 0 index ALU, 1 load, 2 store, done. */
static int copy_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const copy_arg *a = gk->arg;
    uint64_t tid0 = w->block_id * wc_kernel_threads_per_block(&gk->k) + w->warp * WC_WARP_SIZE;
    uint32_t mask = tid0 + WC_WARP_SIZE <= a->n ? 0xffffffffu
                    : tid0 >= a->n              ? 0u
                                                : (1u << (a->n - tid0)) - 1u;
    switch (w->state++) {
    case 0: wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE); return 1;
    case 1:
        wc_gen_mem(o, 0x10, WC_OP_LDG, mask, 1, 2, 4, ARRAY_IN + tid0 * a->stride * 4,
                   (int64_t)a->stride * 4);
        return 1;
    case 2: wc_gen_mem(o, 0x18, WC_OP_STG, mask, 1, 2, 4, ARRAY_OUT + tid0 * 4, 4); return 1;
    default: return 0;
    }
}

static wc_source *open_copy(wc_params *p, uint64_t stride_default, bool takes_stride, wc_err *err)
{
    copy_arg a;
    uint64_t block;
    a.stride = stride_default;
    if (wc_params_u64(p, "n", 1u << 20, 1, 1ull << 32, &a.n, err) < 0) return NULL;
    if (wc_params_u64(p, "block", 256, 32, 1024, &block, err) < 0) return NULL;
    if (takes_stride && wc_params_u64(p, "stride", 2, 1, 1u << 20, &a.stride, err) < 0) return NULL;
    wc_gen_kernel gk;
    memset(&gk, 0, sizeof gk);
    snprintf(gk.k.name, sizeof gk.k.name, takes_stride ? "stride_copy" : "stream_copy");
    gk.k.block = (wc_dim3){(uint32_t)block, 1, 1};
    gk.k.grid = (wc_dim3){(uint32_t)((a.n + block - 1) / block), 1, 1};
    gk.k.regs_per_thread = 8;
    gk.next = copy_next;
    return wc_gen_single(&gk, &a, sizeof a, err);
}

static wc_source *open_stream(wc_params *p, uint64_t seed, wc_err *err)
{
    return open_copy(p, 1, false, err);
}

static wc_source *open_stride(wc_params *p, uint64_t seed, wc_err *err)
{
    return open_copy(p, 2, true, err);
}

const wc_workload wc_wl_micro_stream = {
    .name = "micro/stream",
    .suite = "micro",
    .kernels = "stream_copy",
    .size = "n=1048576",
    .classes = "002:streaming",
    .help = "coalesced copy out[tid] = in[tid]; n=elements, block=threads per block",
    .open = open_stream,
};

const wc_workload wc_wl_micro_stride = {
    .name = "micro/stride",
    .suite = "micro",
    .kernels = "stride_copy",
    .size = "n=1048576 stride=2",
    .classes = "",
    .help = "strided read out[tid] = in[tid*stride]; stride in 4 B elements, n, block",
    .open = open_stride,
};

/* ---- column-major copy (seed 003, Figure 3) -------------------------- */

typedef struct colcopy_arg {
    uint64_t h, w, store;
} colcopy_arg;

/* Per element i: load in[t*W+i] into r1, accumulate (ALU), optionally store. */
static int colcopy_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const colcopy_arg *a = gk->arg;
    uint64_t t0 = (uint64_t)w->warp * WC_WARP_SIZE;
    int64_t i = w->v[0];
    if (i >= (int64_t)a->w) return 0;
    uint64_t row = a->w * 4;
    switch (w->state) {
    case 0:
        wc_gen_mem(o, 0x10, WC_OP_LDG, 0xffffffffu, 1, 2, 4, ARRAY_IN + t0 * row + (uint64_t)i * 4,
                   (int64_t)row);
        w->state = a->store ? 1 : 2;
        return 1;
    case 1:
        wc_gen_mem(o, 0x18, WC_OP_STG, 0xffffffffu, 1, 2, 4, ARRAY_OUT + t0 * row + (uint64_t)i * 4,
                   (int64_t)row);
        w->state = 2;
        return 1;
    default:
        wc_gen_alu(o, 0x20, 0xffffffffu, 2, 2, WC_REG_NONE); /* address increment */
        w->state = 0;
        w->v[0]++;
        return 1;
    }
}

static wc_source *open_colcopy(wc_params *p, uint64_t seed, wc_err *err)
{
    colcopy_arg a;
    if (wc_params_u64(p, "h", 1024, 1, 1024, &a.h, err) < 0) return NULL;
    if (wc_params_u64(p, "w", 1024, 1, 1u << 20, &a.w, err) < 0) return NULL;
    if (wc_params_u64(p, "store", 0, 0, 1, &a.store, err) < 0) return NULL;
    wc_gen_kernel gk;
    memset(&gk, 0, sizeof gk);
    snprintf(gk.k.name, sizeof gk.k.name, "colcopy");
    gk.k.block = (wc_dim3){(uint32_t)a.h, 1, 1};
    gk.k.grid = (wc_dim3){1, 1, 1};
    gk.k.regs_per_thread = 8;
    gk.next = colcopy_next;
    return wc_gen_single(&gk, &a, sizeof a, err);
}

const wc_workload wc_wl_micro_colcopy = {
    .name = "micro/colcopy",
    .suite = "micro",
    .kernels = "colcopy",
    .size = "h=1024 w=1024",
    .classes = "003:figure3",
    .help = "seed 003 column-major copy: one block of h threads, thread t reads row t "
            "(w 4 B elements); store=1 also writes the row",
    .open = open_colcopy,
};
