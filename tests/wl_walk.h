/*
 * wl_walk.h - the walker the Rodinia, Parboil and Lonestar workload tests
 * share: pulls every instruction of every launch through the wc_source ops,
 * warps interleaved round-robin as an engine would, each warp held at a
 * barrier until the block's other running warps reach it, recording per-launch
 * counts and the instructions matching the test's probes.
 */
#ifndef WC_TEST_WL_WALK_H
#define WC_TEST_WL_WALK_H

#include <stdlib.h>

#include "check.h"
#include "warpcache/workloads.h"

#define MAXL 4096

typedef struct probe {
    uint32_t launch; /* 0-based launch */
    uint64_t block;
    uint32_t warp, nth; /* nth global-memory instruction of that warp */
    wc_winst got;
    bool found;
} probe;

typedef struct walk {
    uint32_t nlaunch;
    char name[MAXL][256];
    wc_dim3 grid[MAXL], block[MAXL];
    uint64_t mem[MAXL]; /* global-memory warp instructions per launch */
    uint64_t alu, lds, bar, total_mem, empty_mask;
    probe *pr;
    size_t npr;
    /* optional visitor over every global-memory instruction */
    void (*visit)(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in);
    void *vctx;
} walk;

static int walk_run(const char *spec, uint64_t seed, walk *wk)
{
    wc_err err = {{0}};
    wc_source *src = wc_workload_open(spec, seed, &err);
    if (!src) {
        fprintf(stderr, "open %s: %s\n", spec, err.msg);
        return -1;
    }
    wc_kernel k;
    wc_winst in;
    int rc;
    while ((rc = src->ops->next_kernel(src, &k, &err)) > 0) {
        uint32_t li = wk->nlaunch++;
        if (li >= MAXL) break;
        snprintf(wk->name[li], sizeof wk->name[li], "%s", k.name);
        wk->grid[li] = k.grid;
        wk->block[li] = k.block;
        uint64_t nb = wc_dim3_count(k.grid);
        uint32_t nw = wc_kernel_warps_per_block(&k);
        for (uint64_t b = 0; b < nb; b++) {
            void *blk;
            if (src->ops->open_block(src, b, &blk, &err) <= 0) return -1;
            uint32_t live = nw, *nth = calloc(nw, sizeof *nth), at_bar = 0;
            bool *done = calloc(nw, sizeof *done), *bar = calloc(nw, sizeof *bar);
            while (live) {
                if (at_bar == live) { /* every running warp reached the barrier */
                    memset(bar, 0, nw * sizeof *bar);
                    at_bar = 0;
                }
                for (uint32_t w = 0; w < nw; w++) {
                    if (done[w] || bar[w]) continue;
                    int r = src->ops->next_inst(src, blk, w, &in, &err);
                    if (r < 0) return -1;
                    if (r == 0) {
                        done[w] = true;
                        live--;
                        continue;
                    }
                    if (in.op == WC_OP_BAR) {
                        wk->bar++;
                        bar[w] = true;
                        at_bar++;
                    }
                    if (in.op == WC_OP_LDS || in.op == WC_OP_STS) wk->lds++;
                    if (in.op == WC_OP_ALU || in.op == WC_OP_SFU) wk->alu++;
                    if (!wc_op_is_gmem(in.op)) continue;
                    if (!in.mask) wk->empty_mask++;
                    wk->mem[li]++;
                    wk->total_mem++;
                    for (size_t p = 0; p < wk->npr; p++) {
                        probe *q = &wk->pr[p];
                        if (!q->found && q->launch == li && q->block == b && q->warp == w &&
                            q->nth == nth[w]) {
                            q->got = in;
                            q->found = true;
                        }
                    }
                    if (wk->visit) wk->visit(wk->vctx, li, b, w, &in);
                    nth[w]++;
                }
            }
            free(nth);
            free(done);
            free(bar);
            src->ops->close_block(src, blk);
        }
    }
    wc_source_destroy(src);
    if (rc < 0) fprintf(stderr, "%s: %s\n", spec, err.msg);
    return rc;
}

static walk *walk_new(probe *pr, size_t npr)
{
    walk *wk = calloc(1, sizeof *wk);
    wk->pr = pr;
    wk->npr = npr;
    return wk;
}

/* Probe p found, with the given op, lane `lane` active at address `addr`. */
static bool probe_is(const probe *p, unsigned op, unsigned lane, uint64_t addr)
{
    if (!p->found) {
        fprintf(stderr, "probe launch %u block %llu warp %u nth %u not found\n", p->launch,
                (unsigned long long)p->block, p->warp, p->nth);
        return false;
    }
    if (p->got.op != op || !(p->got.mask >> lane & 1u) ||
        wc_winst_lane_addr(&p->got, lane) != addr) {
        fprintf(stderr,
                "probe launch %u block %llu warp %u nth %u lane %u: op %u mask %08x addr %llx, "
                "want op %u addr %llx\n",
                p->launch, (unsigned long long)p->block, p->warp, p->nth, lane, p->got.op,
                p->got.mask, (unsigned long long)wc_winst_lane_addr(&p->got, lane), op,
                (unsigned long long)addr);
        return false;
    }
    return true;
}

#define R(k) (((uint64_t)(k) + 1u) << 32)

#endif
