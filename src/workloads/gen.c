/*
 * gen.c - wraps a generated program (gen.h) into a wc_source.
 *
 * Each open block holds one wc_gen_warp per warp: that small state is all a
 * built-in workload keeps per resident block, whatever the kernel's length.
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/gen.h"

typedef struct gen_source {
    wc_source base;
    wc_gen_program prog;
    wc_gen_kernel cur;
    uint32_t next_idx;
    bool have_kernel;
} gen_source;

typedef struct gen_block {
    uint32_t nwarps;
    wc_gen_warp w[];
} gen_block;

static int gen_next_kernel(wc_source *s, wc_kernel *k, wc_err *err)
{
    gen_source *g = (gen_source *)s;
    memset(&g->cur, 0, sizeof g->cur);
    int rc = g->prog.kernel(g->prog.ctx, g->next_idx, &g->cur, err);
    if (rc <= 0) {
        g->have_kernel = false;
        return rc;
    }
    g->next_idx++;
    g->have_kernel = true;
    if (g->cur.k.id == 0) g->cur.k.id = g->next_idx;
    *k = g->cur.k;
    return 1;
}

static int gen_open_block(wc_source *s, uint64_t block_id, void **out, wc_err *err)
{
    gen_source *g = (gen_source *)s;
    if (!g->have_kernel) return wc_errf(err, "generator: open_block without a kernel");
    uint32_t threads = wc_kernel_threads_per_block(&g->cur.k);
    uint32_t nwarps = wc_kernel_warps_per_block(&g->cur.k);
    gen_block *b = calloc(1, sizeof *b + nwarps * sizeof(wc_gen_warp));
    if (!b) return wc_errf(err, "generator: out of memory");
    b->nwarps = nwarps;
    wc_dim3 bid = wc_dim3_unlinear(g->cur.k.grid, block_id);
    for (uint32_t i = 0; i < nwarps; i++) {
        wc_gen_warp *w = &b->w[i];
        w->bid = bid;
        w->block_id = block_id;
        w->warp = i;
        uint32_t left = threads - i * WC_WARP_SIZE;
        w->live = left >= 32 ? 0xffffffffu : ((1u << left) - 1u);
    }
    *out = b;
    return 1;
}

static int gen_next_inst(wc_source *s, void *block, uint32_t warp, wc_winst *out, wc_err *err)
{
    gen_source *g = (gen_source *)s;
    gen_block *b = block;
    if (warp >= b->nwarps) return wc_errf(err, "generator: warp %u out of range", warp);
    wc_gen_warp *w = &b->w[warp];
    int rc = g->cur.next(&g->cur, w, out);
    if (rc > 0) out->mask &= w->live;
    return rc;
}

static void gen_close_block(wc_source *s, void *block)
{
    free(block);
}

static void gen_destroy(wc_source *s)
{
    gen_source *g = (gen_source *)s;
    if (g->prog.destroy) g->prog.destroy(g->prog.ctx);
    free(g);
}

static const wc_source_ops gen_ops = {
    .name = "generator",
    .next_kernel = gen_next_kernel,
    .open_block = gen_open_block,
    .next_inst = gen_next_inst,
    .close_block = gen_close_block,
    .destroy = gen_destroy,
};

wc_source *wc_gen_source_create(const wc_gen_program *prog, wc_err *err)
{
    gen_source *g = calloc(1, sizeof *g);
    if (!g) {
        if (prog->destroy) prog->destroy(prog->ctx);
        wc_errf(err, "generator: out of memory");
        return NULL;
    }
    g->base.ops = &gen_ops;
    g->prog = *prog;
    return &g->base;
}

/* ---- single-kernel programs ------------------------------------------ */

typedef struct single_ctx {
    wc_gen_kernel gk;
    size_t arg_size;
    unsigned char arg[];
} single_ctx;

static int single_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    single_ctx *c = ctx;
    if (idx > 0) return 0;
    *out = c->gk;
    out->arg = c->arg_size ? c->arg : NULL;
    return 1;
}

wc_source *wc_gen_single(const wc_gen_kernel *gk, const void *arg, size_t arg_size, wc_err *err)
{
    single_ctx *c = calloc(1, sizeof *c + arg_size);
    if (!c) {
        wc_errf(err, "generator: out of memory");
        return NULL;
    }
    c->gk = *gk;
    c->arg_size = arg_size;
    if (arg_size) memcpy(c->arg, arg, arg_size);
    wc_gen_program prog = {.ctx = c, .kernel = single_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}
