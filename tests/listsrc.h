/*
 * listsrc.h - a wc_source for tests: one kernel whose warps run fixed lists
 * of instructions given by the test (every block runs the same lists).
 */
#ifndef WC_TEST_LISTSRC_H
#define WC_TEST_LISTSRC_H

#include <stdlib.h>
#include <string.h>

#include "warpcache/trace.h"

#define LS_MAX_WARPS 64
#define LS_MAX_INSTS 64

typedef struct list_source {
    wc_source base;
    wc_kernel k;
    unsigned n_insts[LS_MAX_WARPS];
    wc_winst insts[LS_MAX_WARPS][LS_MAX_INSTS];
    int kernels_left;
    /* per block id offset added to every address (so blocks touch different data) */
    uint64_t block_stride;
} list_source;

typedef struct ls_block {
    uint64_t id;
    unsigned pos[LS_MAX_WARPS];
} ls_block;

static int ls_next_kernel(wc_source *s, wc_kernel *k, wc_err *err)
{
    list_source *l = (list_source *)s;
    if (l->kernels_left-- <= 0) return 0;
    *k = l->k;
    return 1;
}

static int ls_open(wc_source *s, uint64_t id, void **b, wc_err *err)
{
    ls_block *blk = calloc(1, sizeof *blk);
    blk->id = id;
    *b = blk;
    return 1;
}

static int ls_next(wc_source *s, void *b, uint32_t warp, wc_winst *out, wc_err *err)
{
    list_source *l = (list_source *)s;
    ls_block *blk = b;
    if (blk->pos[warp] >= l->n_insts[warp]) return 0;
    *out = l->insts[warp][blk->pos[warp]++];
    uint64_t off = blk->id * l->block_stride;
    out->base += off;
    if (out->amode == WC_ADDR_LIST)
        for (int i = 0; i < 32; i++) out->addr[i] += off;
    return 1;
}

static void ls_close(wc_source *s, void *b)
{
    free(b);
}

static void ls_destroy(wc_source *s)
{
    free(s);
}

static const wc_source_ops ls_ops = {"list",  ls_next_kernel, ls_open,
                                     ls_next, ls_close,       ls_destroy};

static inline list_source *ls_create(unsigned grid, unsigned threads)
{
    list_source *l = calloc(1, sizeof *l);
    l->base.ops = &ls_ops;
    snprintf(l->k.name, sizeof l->k.name, "list");
    l->k.id = 1;
    l->k.grid = (wc_dim3){grid, 1, 1};
    l->k.block = (wc_dim3){threads, 1, 1};
    l->kernels_left = 1;
    return l;
}

/* Appends a full-warp unit-stride 4 B load of `addr` into register dst. */
static inline void ls_load(list_source *l, unsigned warp, uint64_t addr, unsigned dst)
{
    wc_winst *in = &l->insts[warp][l->n_insts[warp]++];
    wc_winst_clear(in);
    in->op = WC_OP_LDG;
    in->width = 4;
    in->amode = WC_ADDR_STRIDE;
    in->base = addr;
    in->stride = 4;
    in->dst[in->ndst++] = (uint16_t)dst;
}

static inline void ls_alu(list_source *l, unsigned warp, unsigned dst, unsigned src)
{
    wc_winst *in = &l->insts[warp][l->n_insts[warp]++];
    wc_winst_clear(in);
    if (dst != WC_REG_NONE) in->dst[in->ndst++] = (uint16_t)dst;
    if (src != WC_REG_NONE) in->src[in->nsrc++] = (uint16_t)src;
}

#endif
