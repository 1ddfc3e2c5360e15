/*
 * micro.c - micro-workloads for testing the simulator and the model:
 *
 *   micro/stream       out[tid] = in[tid]           (fully coalesced copy)
 *   micro/stride       out[tid] = in[tid * stride]  (stride in elements)
 *   micro/colcopy      seed 003, Figure 3 (003_ffafd1cb931cbd21.txt, section 4.4):
 *                      one block of H threads; thread t reads its own row
 *                      in[t*W + i], i < W, sequentially (uncoalesced across lanes,
 *                      line locality within each thread); unroll=K issues the
 *                      loop's K loads back to back (nvcc's unrolled shape).
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
WC_PLUGIN(workload, wc_wl_micro_stream, 10);

const wc_workload wc_wl_micro_stride = {
    .name = "micro/stride",
    .suite = "micro",
    .kernels = "stride_copy",
    .size = "n=1048576 stride=2",
    .classes = "",
    .help = "strided read out[tid] = in[tid*stride]; stride in 4 B elements, n, block",
    .open = open_stride,
};
WC_PLUGIN(workload, wc_wl_micro_stride, 20);

/* ---- column-major copy (seed 003, Figure 3) -------------------------- */

typedef struct colcopy_arg {
    uint64_t h, w, store, unroll;
} colcopy_arg;

/* unroll=K up to 32: nvcc unrolls the H100 kernel's column loop 16x
 * (../shared/data/hw/h100/README.md); 32 loads cover a thread's whole 128 B
 * line in one trip.  Each copy has its own register (r1, r4..r34), so
 * the K loads are independent; more than WC_MAX_PENDING (16) of them in
 * flight wait for a free scoreboard entry of the warp (src/core/gpu.h). */
#define COLCOPY_MAX_UNROLL 32

/* The register unrolled copy u loads into: r1 for the first (unroll=1 is the
 * original loop), r4.. for the others (r2 is the address, r3 unused). */
static unsigned colcopy_reg(unsigned u)
{
    return u == 0 ? 1 : 3 + u;
}

/* One (unrolled) iteration covers elements i .. i+K-1 (K = unroll, fewer at
 * the row's end): K loads in[t*W+i+u] into distinct registers, then with
 * store=1 the K stores, then the address increment.  This is the order nvcc
 * emits for an unrolled copy loop: the loads are independent, so a warp has
 * K of them in flight before its first store waits for data.  unroll=1 is
 * the original loop (load, store, increment) instruction for instruction. */
static int colcopy_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const colcopy_arg *a = gk->arg;
    uint64_t t0 = (uint64_t)w->warp * WC_WARP_SIZE;
    int64_t i = w->v[0];
    if (i >= (int64_t)a->w) return 0;
    uint64_t row = a->w * 4, k = a->unroll;
    uint64_t n = a->w - (uint64_t)i < k ? a->w - (uint64_t)i : k; /* copies this iteration */
    uint64_t pc_step = k == 1 ? 0 : 0x100;                        /* unroll=1: the old PCs */
    uint32_t st = w->state;
    if (st < n) { /* load copy st */
        wc_gen_mem(o, 0x10 + st * pc_step, WC_OP_LDG, 0xffffffffu, colcopy_reg(st), 2, 4,
                   ARRAY_IN + t0 * row + ((uint64_t)i + st) * 4, (int64_t)row);
        w->state = st + 1 < n ? st + 1 : a->store ? (uint32_t)k : 2 * (uint32_t)k;
        return 1;
    }
    if (st < k + n) { /* store copy st - k */
        uint32_t u = st - (uint32_t)k;
        wc_gen_mem(o, 0x18 + u * pc_step, WC_OP_STG, 0xffffffffu, colcopy_reg(u), 2, 4,
                   ARRAY_OUT + t0 * row + ((uint64_t)i + u) * 4, (int64_t)row);
        w->state = u + 1 < n ? st + 1 : 2 * (uint32_t)k;
        return 1;
    }
    wc_gen_alu(o, 0x20, 0xffffffffu, 2, 2, WC_REG_NONE); /* address increment */
    w->state = 0;
    w->v[0] += (int64_t)n;
    return 1;
}

static wc_source *open_colcopy(wc_params *p, uint64_t seed, wc_err *err)
{
    colcopy_arg a;
    if (wc_params_u64(p, "h", 1024, 1, 1024, &a.h, err) < 0) return NULL;
    if (wc_params_u64(p, "w", 1024, 1, 1u << 20, &a.w, err) < 0) return NULL;
    if (wc_params_u64(p, "store", 0, 0, 1, &a.store, err) < 0) return NULL;
    if (wc_params_u64(p, "unroll", 1, 1, COLCOPY_MAX_UNROLL, &a.unroll, err) < 0) return NULL;
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
            "(w 4 B elements); store=1 also writes the row; unroll=K (1-32) issues K loads per "
            "loop iteration, as nvcc's unrolled loop",
    .open = open_colcopy,
};
WC_PLUGIN(workload, wc_wl_micro_colcopy, 30);
