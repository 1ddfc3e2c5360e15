/*
 * trace_open.c - opens a trace for `run` (and other commands): any format
 * the trace readers know, with an optional kernel selection given either as
 * ids ("1,3-5") or as a name pattern ("*gemm*").  The source is wrapped so
 * that a kernel with a big but legal grid is announced on stderr before it
 * is simulated (the readers refuse what cannot be meant; this says what a
 * legal but costly run will cost, docs/traces.md "Limits").
 */
#include <ctype.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "warpcache/traceio.h"

/* Grids above this many thread blocks are announced. */
#define WC_CLI_BIG_GRID (1ull << 20)

typedef struct cost_source {
    wc_source base;
    wc_source *inner;
} cost_source;

static int cost_next_kernel(wc_source *src, wc_kernel *k, wc_err *err)
{
    cost_source *s = (cost_source *)src;
    int rc = s->inner->ops->next_kernel(s->inner, k, err);
    uint64_t blocks = wc_dim3_count(k->grid);
    if (rc > 0 && blocks > WC_CLI_BIG_GRID)
        wc_cli_error("note: kernel %u (%.80s) launches %llu thread blocks of %u warps (%llu "
                     "warps): a long simulation; --kernels or -max_cycles limit it",
                     k->id, k->name, (unsigned long long)blocks, wc_kernel_warps_per_block(k),
                     (unsigned long long)(blocks * wc_kernel_warps_per_block(k)));
    return rc;
}

static int cost_open_block(wc_source *src, uint64_t id, void **b, wc_err *err)
{
    cost_source *s = (cost_source *)src;
    return s->inner->ops->open_block(s->inner, id, b, err);
}

static int cost_next_inst(wc_source *src, void *b, uint32_t w, wc_winst *o, wc_err *err)
{
    cost_source *s = (cost_source *)src;
    return s->inner->ops->next_inst(s->inner, b, w, o, err);
}

static void cost_close_block(wc_source *src, void *b)
{
    cost_source *s = (cost_source *)src;
    s->inner->ops->close_block(s->inner, b);
}

static void cost_destroy(wc_source *src)
{
    cost_source *s = (cost_source *)src;
    wc_source_destroy(s->inner);
    free(s);
}

static const wc_source_ops cost_ops = {
    .name = "cost-note",
    .next_kernel = cost_next_kernel,
    .open_block = cost_open_block,
    .next_inst = cost_next_inst,
    .close_block = cost_close_block,
    .destroy = cost_destroy,
};

wc_source *wc_cli_open_trace(const char *path, const char *kernels, wc_err *err)
{
    wc_kernel_filter f = {0};
    if (kernels) {
        if (isdigit((unsigned char)kernels[0]))
            f.ids = kernels;
        else
            f.name = kernels;
        if (wc_kernel_filter_check(&f, err) < 0) return NULL;
    }
    wc_source *src = wc_trace_open(path, WC_TRACE_AUTO, kernels ? &f : NULL, err);
    if (!src) return NULL;
    cost_source *s = calloc(1, sizeof *s);
    if (!s) {
        wc_source_destroy(src);
        wc_errf(err, "out of memory");
        return NULL;
    }
    s->base.ops = &cost_ops;
    s->inner = src;
    return &s->base;
}
