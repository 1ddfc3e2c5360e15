/*
 * fwt.c - the CUDA SDK fastWalshTransform sample, seed 002's "FWT" (Table 2,
 * streaming).  Facts from the sample's public source.
 *
 * dataN = 2^log2Data floats (default 2^23) are transformed, then the kernel
 * (2^7 values padded with zeros to dataN) is transformed, the two are
 * multiplied element-wise, and the product is transformed again: the host
 * runs fwtBatchGPU(Data), fwtBatchGPU(Kernel), modulateGPU, fwtBatchGPU(Data).
 * fwtBatchGPU(d, M = 1, log2N) launches, while log2N > 11,
 * fwtBatch2Kernel<<<(2^log2Data / 1024, 1), 256>>>(d, d, stride = N/4) and
 * steps log2N -= 2, M *= 4; then fwtBatch1Kernel<<<M, N/4, N*4>>> on the
 * remaining 2^11-element blocks.
 *   fwtBatch2Kernel: pos = global thread id, lo = pos & (stride-1),
 *     i0 = ((pos - lo) << 2) + lo, i1..i3 = i0 + stride*k; loads d[i0..i3],
 *     radix-4 butterfly, stores d[i0], d[i1], d[i2], d[i3].
 *   fwtBatch1Kernel: block b works on d[b*N .. b*N + N) (N = 2048, 512
 *     threads): loads pos = tx, tx + 512, ... into shared memory; radix-4
 *     stages for stride = 512, 128, 32, 8, 2 (barrier, 4 LDS, butterfly,
 *     4 STS); log2N is odd, so one radix-2 stage (barrier, pos = tx,
 *     tx + 512 < N/2: 2 LDS, 2 STS); barrier; stores the 4 elements back.
 *   modulateKernel<<<128, 256>>>(Data, Kernel, dataN): grid-stride loop,
 *     Data[pos] *= Kernel[pos] / dataN (load Data, load Kernel, store Data).
 * Arrays: 0 Data, 1 Kernel.
 *
 * Approximated: ALU work is a count (8 adds per radix-4 butterfly, index
 * arithmetic); the host's zero-padding copy of the kernel is not a kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/gen.h"

#define FWT_ELEM_LOG2 11
#define FWT_THREADS2  256u

typedef struct fwt_ctx {
    uint64_t log2data;
} fwt_ctx;

enum { FWT_BATCH2, FWT_BATCH1, FWT_MODULATE };

typedef struct fwt_launch {
    int kind;
    unsigned array;  /* 0 Data or 1 Kernel */
    uint64_t stride; /* batch2: N/4 */
    uint64_t n;      /* batch1: elements per block; modulate: dataN */
} fwt_launch;

typedef struct fwt_prog {
    fwt_ctx c;
    uint32_t per_fwt; /* launches of one fwtBatchGPU */
    fwt_launch cur;
} fwt_prog;

/* fwtBatch2Kernel: lane l of the warp with first thread `pos0`. */
static void fwt2_mem(wc_winst *o, uint64_t pc, wc_opclass op, unsigned reg, const fwt_launch *a,
                     uint64_t pos0, unsigned k)
{
    wc_gen_mem_list(o, pc, op, 0xffffffffu, reg, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t pos = pos0 + l, lo = pos & (a->stride - 1), i0 = ((pos - lo) << 2) + lo;
        o->addr[l] = WC_GEN_REGION(a->array) + (i0 + k * a->stride) * 4;
    }
}

static int fwt2_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const fwt_launch *a = gk->arg;
    uint64_t pos0 = w->block_id * FWT_THREADS2 + (uint64_t)w->warp * WC_WARP_SIZE;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 1, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 4; w->v[0]++)
        WC_CO_EMIT(w,
                   fwt2_mem(o, 0x10, WC_OP_LDG, 2 + (unsigned)w->v[0], a, pos0, (unsigned)w->v[0]));
    for (w->v[0] = 0; w->v[0] < 8; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_alu(o, 0x18, 0xffffffffu, 2 + (unsigned)(w->v[0] % 4),
                                 2 + (unsigned)((w->v[0] + 2) % 4), 2 + (unsigned)(w->v[0] % 4)));
    for (w->v[0] = 0; w->v[0] < 4; w->v[0]++)
        WC_CO_EMIT(w,
                   fwt2_mem(o, 0x20, WC_OP_STG, 2 + (unsigned)w->v[0], a, pos0, (unsigned)w->v[0]));
    WC_CO_END(w);
}

static int fwt1_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const fwt_launch *a = gk->arg;
    uint64_t t0 = (uint64_t)w->warp * WC_WARP_SIZE, nt = a->n / 4;
    uint64_t base = WC_GEN_REGION(a->array) + w->block_id * a->n * 4;
    /* v[0] loop position offset, v[1] stride, v[2] counter */
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < (int64_t)a->n; w->v[0] += (int64_t)nt) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, 0xffffffffu, 2, 1, 4,
                                 base + (t0 + (uint64_t)w->v[0]) * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, 0xffffffffu, 2, WC_REG_NONE, 4,
                                 (t0 + (uint64_t)w->v[0]) * 4, 4));
    }
    for (w->v[1] = (int64_t)(a->n >> 2); w->v[1] > 0; w->v[1] >>= 2) {
        WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
        for (w->v[2] = 0; w->v[2] < 4; w->v[2]++)
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x28, WC_OP_LDS, 0xffffffffu, 2 + (unsigned)w->v[2],
                                  WC_REG_NONE, 4, t0 * 16 + (uint64_t)(w->v[2] * w->v[1]) * 4, 4));
        for (w->v[2] = 0; w->v[2] < 8; w->v[2]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x30, 0xffffffffu, 2 + (unsigned)(w->v[2] % 4), 3, 4));
        for (w->v[2] = 0; w->v[2] < 4; w->v[2]++)
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x38, WC_OP_STS, 0xffffffffu, 2 + (unsigned)w->v[2],
                                  WC_REG_NONE, 4, t0 * 16 + (uint64_t)(w->v[2] * w->v[1]) * 4, 4));
    }
    if (FWT_ELEM_LOG2 & 1) { /* the radix-2 stage for an odd power of two */
        WC_CO_EMIT(w, wc_gen_bar(o, 0x40));
        for (w->v[0] = 0; w->v[0] < (int64_t)(a->n / 2); w->v[0] += (int64_t)nt) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_LDS, 0xffffffffu, 2, WC_REG_NONE, 4,
                                     (t0 + (uint64_t)w->v[0]) * 8, 8));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_LDS, 0xffffffffu, 3, WC_REG_NONE, 4,
                                     (t0 + (uint64_t)w->v[0]) * 8 + 4, 8));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x58, 0xffffffffu, 2, 2, 3));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_STS, 0xffffffffu, 2, WC_REG_NONE, 4,
                                     (t0 + (uint64_t)w->v[0]) * 8, 8));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x68, WC_OP_STS, 0xffffffffu, 3, WC_REG_NONE, 4,
                                     (t0 + (uint64_t)w->v[0]) * 8 + 4, 8));
        }
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x70));
    for (w->v[0] = 0; w->v[0] < (int64_t)a->n; w->v[0] += (int64_t)nt) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x78, WC_OP_LDS, 0xffffffffu, 2, WC_REG_NONE, 4,
                                 (t0 + (uint64_t)w->v[0]) * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_STG, 0xffffffffu, 2, 1, 4,
                                 base + (t0 + (uint64_t)w->v[0]) * 4, 4));
    }
    WC_CO_END(w);
}

static int fwt_mod_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const fwt_launch *a = gk->arg;
    uint64_t step = (uint64_t)wc_dim3_count(gk->k.grid) * gk->k.block.x;
    WC_CO_BEGIN(w);
    for (w->v[0] = (int64_t)(w->block_id * gk->k.block.x + (uint64_t)w->warp * WC_WARP_SIZE);
         (uint64_t)w->v[0] < a->n; w->v[0] += (int64_t)step) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, wc_gen_mask_below((uint64_t)w->v[0], a->n), 2,
                                 1, 4, WC_GEN_REGION(0) + (uint64_t)w->v[0] * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, wc_gen_mask_below((uint64_t)w->v[0], a->n), 3,
                                 1, 4, WC_GEN_REGION(1) + (uint64_t)w->v[0] * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, 0xffffffffu, 2, 2, 3));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, wc_gen_mask_below((uint64_t)w->v[0], a->n), 2,
                                 1, 4, WC_GEN_REGION(0) + (uint64_t)w->v[0] * 4, 4));
    }
    WC_CO_END(w);
}

/* Launch j of one fwtBatchGPU(array): the batch2 steps, then batch1. */
static void fwt_batch(fwt_prog *p, uint32_t j, unsigned array, wc_gen_kernel *out)
{
    fwt_launch *a = &p->cur;
    uint64_t log2n = p->c.log2data - 2 * (uint64_t)j;
    a->array = array;
    if (j + 1 < p->per_fwt) {
        a->kind = FWT_BATCH2;
        a->stride = (1ull << log2n) / 4;
        snprintf(out->k.name, sizeof out->k.name, "fwtBatch2Kernel");
        out->k.block = (wc_dim3){FWT_THREADS2, 1, 1};
        out->k.grid = (wc_dim3){(uint32_t)((1ull << p->c.log2data) / (4 * FWT_THREADS2)), 1, 1};
        out->next = fwt2_next;
    } else {
        a->kind = FWT_BATCH1;
        a->n = 1ull << log2n;
        snprintf(out->k.name, sizeof out->k.name, "fwtBatch1Kernel");
        out->k.block = (wc_dim3){(uint32_t)(a->n / 4), 1, 1};
        out->k.grid = (wc_dim3){(uint32_t)(1ull << (p->c.log2data - log2n)), 1, 1};
        out->k.shmem_bytes = (uint32_t)(a->n * 4);
        out->next = fwt1_next;
    }
}

static int fwt_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    fwt_prog *p = ctx;
    uint32_t k = p->per_fwt;
    if (idx >= 3 * k + 1) return 0;
    out->arg = &p->cur;
    out->k.regs_per_thread = 12;
    out->k.shmem_bytes = 0;
    if (idx < k)
        fwt_batch(p, idx, 0, out);
    else if (idx < 2 * k)
        fwt_batch(p, idx - k, 1, out);
    else if (idx == 2 * k) {
        p->cur.kind = FWT_MODULATE;
        p->cur.n = 1ull << p->c.log2data;
        snprintf(out->k.name, sizeof out->k.name, "modulateKernel");
        out->k.block = (wc_dim3){256, 1, 1};
        out->k.grid = (wc_dim3){128, 1, 1};
        out->next = fwt_mod_next;
    } else
        fwt_batch(p, idx - 2 * k - 1, 0, out);
    return 1;
}

static wc_source *open_fwt(wc_params *p, uint64_t seed, wc_err *err)
{
    fwt_prog c;
    memset(&c, 0, sizeof c);
    /* log2data must leave an odd remainder of 11 after the radix-4 steps,
     * as the sample's sizes do: odd and at least 11. */
    if (wc_params_u64(p, "log2data", 23, FWT_ELEM_LOG2, 27, &c.c.log2data, err) < 0) return NULL;
    if (!(c.c.log2data & 1)) {
        wc_errf(err, "workload %s: parameter log2data must be odd (11, 13, ..., 27)", p->workload);
        return NULL;
    }
    c.per_fwt = (uint32_t)((c.c.log2data - FWT_ELEM_LOG2) / 2 + 1);
    fwt_prog *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "fwt: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = fwt_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_sdk_fwt = {
    .name = "sdk/fwt",
    .suite = "sdk",
    .kernels = "fwtBatch2Kernel x6, fwtBatch1Kernel (x2), modulateKernel, fwt again",
    .size = "log2data=23 (8M floats), kernel 128",
    .classes = "002:streaming",
    .help = "CUDA SDK fastWalshTransform (seed 002 FWT): transform data and kernel, multiply, "
            "transform back; log2data (odd, 11..27)",
    .open = open_fwt,
};
WC_PLUGIN(workload, wc_wl_sdk_fwt, 610);
