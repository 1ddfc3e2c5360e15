/*
 * fft.c - the shared-memory 512-point FFT of SHOC (level 1 "FFT", single
 * precision), which implements Volkov and Kazian's "Fitting FFT onto the G80
 * architecture": seed 001's "FFT", "an optimised version fully utilising
 * on-chip memory" (its reference [33]; the seed's text here lacks the
 * reference list, so the choice of SHOC's kernel is ours, see
 * docs/workloads-irregular.md).  Facts from SHOC's public source.
 *
 * Each block of 64 threads transforms one 512-point complex (float2, 8 B)
 * signal in registers and shared memory: thread tid loads
 * work[blockIdx.x*512 + tid + i*64] for i < 8 (8 coalesced 8-byte loads),
 * runs an 8-point FFT, twiddles, transposes through shared memory
 * (smem[8*8*9]: per component 8 STS, barrier, 8 LDS, barrier), FFT8,
 * twiddles, transposes again (the last LDS group has no barrier after it),
 * FFT8, and stores the 8 results back to the same 8 addresses (in place).
 * SHOC runs the forward kernel then the inverse kernel (same accesses,
 * plus 16 scaling multiplies) per pass.  Arrays: 0 work.
 *
 * Approximated: the ALU work of FFT8 (about 52 instructions per call) and
 * each twiddle (7 complex multiplies with a sincos each: 7 SFU + 28 ALU) is
 * emitted as counts, not as the compiled instruction sequence.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define FFT_N       512
#define FFT_THREADS 64
#define FFT8_ALU    52

typedef struct fft_ctx {
    uint64_t ffts, passes;
} fft_ctx;

typedef struct fft_launch {
    const fft_ctx *c;
    bool inverse;
} fft_launch;

/* Byte address of work[blockIdx.x*512 + tid + i*64] for lane 0 of warp w. */
static uint64_t fft_addr(const wc_gen_warp *w, int64_t i)
{
    uint64_t gid = w->bid.x * FFT_N + (uint64_t)w->warp * WC_WARP_SIZE;
    return WC_GEN_REGION(0) + (gid + (uint64_t)i * FFT_THREADS) * 8;
}

static void fft_sfu(wc_winst *o, uint64_t pc)
{
    wc_gen_alu(o, pc, 0xffffffffu, 3, 2, WC_REG_NONE);
    o->op = WC_OP_SFU;
}

static int fft_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const fft_launch *a = gk->arg;
    /* v[0]: stage (0..2), v[1]/v[2]: loop counters, v[3]: transpose part */
    WC_CO_BEGIN(w);
    for (w->v[1] = 0; w->v[1] < 8; w->v[1]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, 0xffffffffu, 4 + (unsigned)w->v[1], 1, 8,
                                 fft_addr(w, w->v[1]), 8));
    for (w->v[0] = 0; w->v[0] < 3; w->v[0]++) {
        for (w->v[1] = 0; w->v[1] < FFT8_ALU; w->v[1]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x18, 0xffffffffu, 4 + (unsigned)(w->v[1] % 8),
                                     4 + (unsigned)((w->v[1] + 1) % 8), 2));
        if (w->v[0] == 2) break;
        for (w->v[1] = 0; w->v[1] < 7; w->v[1]++) { /* twiddle8 */
            WC_CO_EMIT(w, fft_sfu(o, 0x20));
            for (w->v[2] = 0; w->v[2] < 4; w->v[2]++)
                WC_CO_EMIT(w, wc_gen_alu(o, 0x28, 0xffffffffu, 5 + (unsigned)w->v[1], 3,
                                         5 + (unsigned)w->v[1]));
        }
        /* transpose: x then y, each 8 STS, barrier, 8 LDS, barrier (none
         * after the very last LDS group) */
        for (w->v[3] = 0; w->v[3] < 2; w->v[3]++) {
            for (w->v[1] = 0; w->v[1] < 8; w->v[1]++)
                WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STS, 0xffffffffu, 4 + (unsigned)w->v[1],
                                         WC_REG_NONE, 4, (uint64_t)w->v[1] * 264, 4));
            WC_CO_EMIT(w, wc_gen_bar(o, 0x38));
            for (w->v[1] = 0; w->v[1] < 8; w->v[1]++)
                WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_LDS, 0xffffffffu, 4 + (unsigned)w->v[1],
                                         WC_REG_NONE, 4, (uint64_t)w->v[1] * 32, 264));
            if (w->v[0] == 1 && w->v[3] == 1) break;
            WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
        }
    }
    if (a->inverse)
        for (w->v[1] = 0; w->v[1] < 16; w->v[1]++) /* data /= 512 */
            WC_CO_EMIT(w, wc_gen_alu(o, 0x50, 0xffffffffu, 4 + (unsigned)(w->v[1] % 8),
                                     4 + (unsigned)(w->v[1] % 8), WC_REG_NONE));
    for (w->v[1] = 0; w->v[1] < 8; w->v[1]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_STG, 0xffffffffu, 4 + (unsigned)w->v[1], 1, 8,
                                 fft_addr(w, w->v[1]), 8));
    WC_CO_END(w);
}

typedef struct fft_prog {
    fft_ctx c;
    fft_launch l;
} fft_prog;

static int fft_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    fft_prog *f = ctx;
    if (idx >= 2 * f->c.passes) return 0;
    f->l.c = &f->c;
    f->l.inverse = idx % 2 == 1;
    out->arg = &f->l;
    snprintf(out->k.name, sizeof out->k.name, "%s", f->l.inverse ? "ifft1D_512" : "fft1D_512");
    out->k.block = (wc_dim3){FFT_THREADS, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)f->c.ffts, 1, 1};
    out->k.shmem_bytes = 8 * 8 * 9 * 4;
    out->k.regs_per_thread = 40;
    out->next = fft_next;
    return 1;
}

static wc_source *open_fft(wc_params *p, uint64_t seed, wc_err *err)
{
    fft_prog *f = calloc(1, sizeof *f);
    if (!f) {
        wc_errf(err, "fft: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "ffts", 2048, 1, 1u << 20, &f->c.ffts, err) < 0 ||
        wc_params_u64(p, "passes", 1, 1, 1000, &f->c.passes, err) < 0) {
        free(f);
        return NULL;
    }
    wc_gen_program prog = {.ctx = f, .kernel = fft_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_shoc_fft = {
    .name = "shoc/fft",
    .suite = "shoc",
    .kernels = "(fft1D_512, ifft1D_512) x passes",
    .size = "ffts=2048 passes=1",
    .classes = "001:CI",
    .help = "SHOC shared-memory 512-point FFT (seed 001 FFT); ffts (signals of 512 complex "
            "floats), passes (forward + inverse launch pairs)",
    .open = open_fft,
};
WC_PLUGIN(workload, wc_wl_shoc_fft, 570);
