/*
 * nn.c - the neural network of GPGPU-Sim's ISPASS 2009 benchmark set
 * ("NN", Bakhoda et al.): seed 002's "NN", "Neural Network [2]" (Table 2,
 * cache-friendly), which the seed says it adopted from the GPGPU-Sim
 * workloads.  A convolutional network for handwritten digits (29 x 29
 * images) evaluated for NUM images at once, one kernel per layer.  Facts
 * from the benchmark's public source (the four execute*Layer kernels).
 *
 *   executeFirstLayer<<<(6, NUM), (13, 13)>>>: feature map bx, image by; the
 *     thread (tx, ty) reads the bias W1[26*bx] and, for i < 25, the input
 *     L1[29*29*by + 29*(2*ty) + 2*tx + t1[i]] (t1[i] = 29*(i/5) + i%5, a 5 x 5
 *     window with stride 2) and the weight W1[26*bx + 1 + i], then stores
 *     L2[169*bx + 13*ty + tx + 1014*by].
 *   executeSecondLayer<<<(50, NUM), (5, 5)>>>: bias W2[156*bx]; for i < 25 and
 *     each of the 6 input maps m: L2[1014*by + 169*m + 13*(2*ty) + 2*tx +
 *     t2[i]] (t2[i] = 13*(i/5) + i%5) and W2[156*bx + 1 + 6*i + m]; stores
 *     L3[25*bx + 5*ty + tx + 1250*by].
 *   executeThirdLayer<<<(100, NUM), 1>>>: one thread: W3[1251*bx], then for
 *     i < 1250: L3[1250*by + i], W3[1251*bx + 1 + i]; stores L4[bx + 100*by].
 *   executeFourthLayer<<<(10, NUM), 1>>>: W4[101*bx], for i < 100:
 *     L4[100*by + i], W4[101*bx + 1 + i]; stores L5[bx + 10*by].
 * Every weight load is a broadcast (one address for the whole block), and
 * the windows of neighbouring threads overlap, which is where the kernels'
 * L1 reuse comes from.  Arrays: 0 L1 neurons (input), 1 W1, 2 L2, 3 W2,
 * 4 L3, 5 W3, 6 L4, 7 W4, 8 L5 (floats).
 *
 * Approximated: the number of images (`images`, default 28) is the value
 * we believe GPGPU-Sim's ISPASS 2009 run script passes, not checked; tanh
 * is one SFU and two ALU instructions; the kernel templates live in
 * constant memory and are not accesses here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

typedef struct nn_ctx {
    uint64_t images;
} nn_ctx;

/* Lane addresses of L[base + 2*tx + row*(2*ty) + tmpl] for a block of
 * side `side` (13 or 5) whose input rows are `row` floats wide. */
static void nn_window(wc_winst *o, uint64_t pc, const wc_gen_warp *w, unsigned array, uint64_t base,
                      uint64_t side, uint64_t row, uint64_t tmpl)
{
    wc_gen_mem_list(o, pc, WC_OP_LDG, w->live, 2, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t t = (uint64_t)w->warp * WC_WARP_SIZE + l, tx = t % side, ty = t / side;
        o->addr[l] = WC_GEN_REGION(array) + (base + 2 * tx + row * 2 * ty + tmpl) * 4;
    }
}

/* The output store L[base + side*ty + tx] of a 2-D layer. */
static void nn_store(wc_winst *o, const wc_gen_warp *w, unsigned array, uint64_t base)
{
    wc_gen_mem(o, 0x60, WC_OP_STG, w->live, 4, 1, 4,
               WC_GEN_REGION(array) + (base + (uint64_t)w->warp * WC_WARP_SIZE) * 4, 4);
}

static void nn_bcast(wc_winst *o, uint64_t pc, const wc_gen_warp *w, unsigned array, uint64_t e)
{
    wc_gen_mem(o, pc, WC_OP_LDG, w->live, 3, 1, 4, WC_GEN_REGION(array) + e * 4, 0);
}

static void nn_tanh(wc_winst *o, const wc_gen_warp *w)
{
    wc_gen_alu(o, 0x50, w->live, 4, 4, WC_REG_NONE);
    o->op = WC_OP_SFU;
}

static int nn1_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    uint64_t bx = w->bid.x, by = w->bid.y;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, nn_bcast(o, 0x08, w, 1, 26 * bx));
    for (w->v[0] = 0; w->v[0] < 25; w->v[0]++) {
        WC_CO_EMIT(w, nn_window(o, 0x10, w, 0, 841 * by, 13, 29,
                                29 * (uint64_t)(w->v[0] / 5) + (uint64_t)(w->v[0] % 5)));
        WC_CO_EMIT(w, nn_bcast(o, 0x18, w, 1, 26 * bx + 1 + (uint64_t)w->v[0]));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, w->live, 4, 2, 3));
    }
    WC_CO_EMIT(w, nn_tanh(o, w));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x58, w->live, 4, 4, WC_REG_NONE));
    WC_CO_EMIT(w, nn_store(o, w, 2, 169 * bx + 1014 * by));
    WC_CO_END(w);
}

static int nn2_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    uint64_t bx = w->bid.x, by = w->bid.y;
    /* v[0] tap i, v[1] input map m */
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, nn_bcast(o, 0x08, w, 3, 156 * bx));
    for (w->v[0] = 0; w->v[0] < 25; w->v[0]++)
        for (w->v[1] = 0; w->v[1] < 6; w->v[1]++) {
            WC_CO_EMIT(w, nn_window(o, 0x10, w, 2, 1014 * by + 169 * (uint64_t)w->v[1], 5, 13,
                                    13 * (uint64_t)(w->v[0] / 5) + (uint64_t)(w->v[0] % 5)));
            WC_CO_EMIT(w, nn_bcast(o, 0x18, w, 3,
                                   156 * bx + 1 + 6 * (uint64_t)w->v[0] + (uint64_t)w->v[1]));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x20, w->live, 4, 2, 3));
        }
    WC_CO_EMIT(w, nn_tanh(o, w));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x58, w->live, 4, 4, WC_REG_NONE));
    WC_CO_EMIT(w, nn_store(o, w, 4, 25 * bx + 1250 * by));
    WC_CO_END(w);
}

/* Layers 3 and 4: one thread, a dot product of `n` inputs. */
typedef struct nn_fc {
    uint64_t n;
    unsigned in, weights, out;
} nn_fc;

static int nnfc_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const nn_fc *f = gk->arg;
    uint64_t bx = w->bid.x, by = w->bid.y, outs = gk->k.grid.x;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, nn_bcast(o, 0x08, w, f->weights, (f->n + 1) * bx));
    for (w->v[0] = 0; w->v[0] < (int64_t)f->n; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, 1u, 2, 1, 4,
                                 WC_GEN_REGION(f->in) + (f->n * by + (uint64_t)w->v[0]) * 4, 0));
        WC_CO_EMIT(w, nn_bcast(o, 0x18, w, f->weights, (f->n + 1) * bx + 1 + (uint64_t)w->v[0]));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, 1u, 4, 2, 3));
    }
    WC_CO_EMIT(w, nn_tanh(o, w));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x58, 1u, 4, 4, WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_STG, 1u, 4, 1, 4,
                             WC_GEN_REGION(f->out) + (bx + outs * by) * 4, 0));
    WC_CO_END(w);
}

static const nn_fc nn_layer3 = {.n = 1250, .in = 4, .weights = 5, .out = 6};
static const nn_fc nn_layer4 = {.n = 100, .in = 6, .weights = 7, .out = 8};

static int nn_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    const nn_ctx *c = ctx;
    uint32_t imgs = (uint32_t)c->images;
    out->k.regs_per_thread = 12;
    switch (idx) {
    case 0:
        snprintf(out->k.name, sizeof out->k.name, "executeFirstLayer");
        out->k.grid = (wc_dim3){6, imgs, 1};
        out->k.block = (wc_dim3){13, 13, 1};
        out->next = nn1_next;
        return 1;
    case 1:
        snprintf(out->k.name, sizeof out->k.name, "executeSecondLayer");
        out->k.grid = (wc_dim3){50, imgs, 1};
        out->k.block = (wc_dim3){5, 5, 1};
        out->next = nn2_next;
        return 1;
    case 2:
    case 3:
        snprintf(out->k.name, sizeof out->k.name,
                 idx == 2 ? "executeThirdLayer" : "executeFourthLayer");
        out->k.grid = (wc_dim3){idx == 2 ? 100 : 10, imgs, 1};
        out->k.block = (wc_dim3){1, 1, 1};
        out->arg = idx == 2 ? &nn_layer3 : &nn_layer4;
        out->next = nnfc_next;
        return 1;
    default: return 0;
    }
}

static wc_source *open_nn(wc_params *p, uint64_t seed, wc_err *err)
{
    nn_ctx c;
    if (wc_params_u64(p, "images", 28, 1, 65535, &c.images, err) < 0) return NULL;
    nn_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "nn: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = nn_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_ispass_nn = {
    .name = "ispass/nn",
    .suite = "ispass",
    .kernels = "executeFirstLayer, executeSecondLayer, executeThirdLayer, executeFourthLayer",
    .size = "images=28 (assumed)",
    .classes = "002:friendly",
    .help = "GPGPU-Sim ISPASS 2009 NN (seed 002 NN): 4-layer convolutional network for 29x29 "
            "digits; images (NUM)",
    .open = open_nn,
};
WC_PLUGIN(workload, wc_wl_ispass_nn, 640);
