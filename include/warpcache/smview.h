/*
 * smview.h - a read-only view of one SM for plug-ins (controllers, memory
 * stages, analyses): its warp slots, blocks, barrier state, kernel id,
 * instruction count and time, read through static inline accessors.
 *
 * What a plug-in may rely on: the accessors below and their meaning.  What
 * it may not: the fields of wc_smview, which say where the engine keeps
 * each value, not what the engine's records look like.  The engine fills a
 * view once when it builds the SM (src/core/sm.c, wc_sm_init) and never
 * writes it again: every value is read in place through a pointer, or
 * through a (base, stride) pair over the engine's own arrays of warp, block
 * and scheduler records.  So keeping the view current costs the engine
 * nothing, an accessor costs one or two loads, and the engine may reorder
 * its records freely (only wc_sm_init's offsets change).
 *
 * A view is valid while the simulator runs (from the first kernel's
 * kernel_begin on); warp and block slots are indices 0..n-1 as requests
 * carry them (wc_mem_req.warp; the block slot of a warp).
 */
#ifndef WARPCACHE_SMVIEW_H
#define WARPCACHE_SMVIEW_H

#include <stddef.h>

#include "warpcache/common.h"

/* Warps a block has at most (1024 threads, CUDA's limit): a warp's index in
 * its block (wc_req_wib) is below it. */
#define WC_MAX_BLOCK_WARPS 32

/* A warp slot's state. */
enum {
    WC_WARP_FREE = 0, /* no warp */
    WC_WARP_ACTIVE,   /* running: a member of its scheduler */
    WC_WARP_DRAINING  /* its stream ended; it waits for its loads to retire */
};

/* One field of every element of an engine array: the field of element 0 and
 * the distance between elements. */
typedef struct wc_view_field {
    const unsigned char *base;
    size_t stride;
} wc_view_field;

static inline const void *wc_view_at(wc_view_field f, unsigned i)
{
    return f.base + (size_t)i * f.stride;
}

typedef struct wc_smview {
    unsigned id;                /* the SM's index */
    unsigned n_slots;           /* warp slots */
    unsigned n_block_slots;     /* block slots */
    unsigned n_sched;           /* warp schedulers; warp slot w belongs to w % n_sched */
    const uint64_t *now;        /* the SM's clock: the cycle it runs (listeners, load gate) or
                                   ran last (a controller's hook at a boundary) */
    const uint64_t *warp_insts; /* warp instructions issued (cumulative) */
    const uint32_t *kernel_id;  /* the launch whose blocks run here (wc_kernel.id; set as its
                                   first block starts, before kernel_begin) */
    /* per warp slot */
    wc_view_field warp_block;      /* uint32_t: its block slot */
    wc_view_field warp_state;      /* uint8_t: WC_WARP_* */
    wc_view_field warp_at_barrier; /* uint8_t: waits at a barrier */
    wc_view_field warp_op;         /* uint8_t: the op of its next instruction (wc_op) */
    /* per block slot */
    wc_view_field block_id; /* uint64_t: the linear block id */
    /* per scheduler */
    wc_view_field sched_n;     /* unsigned: how many warps it holds */
    wc_view_field sched_warps; /* const uint16_t *: their slots, oldest first */
} wc_smview;

static inline uint64_t wc_smview_now(const wc_smview *v)
{
    return *v->now;
}

static inline uint64_t wc_smview_warp_insts(const wc_smview *v)
{
    return *v->warp_insts;
}

static inline uint32_t wc_smview_kernel_id(const wc_smview *v)
{
    return *v->kernel_id;
}

/* The block slot of the warp in `slot`. */
static inline uint32_t wc_smview_warp_block(const wc_smview *v, unsigned slot)
{
    return *(const uint32_t *)wc_view_at(v->warp_block, slot);
}

static inline unsigned wc_smview_warp_state(const wc_smview *v, unsigned slot)
{
    return *(const uint8_t *)wc_view_at(v->warp_state, slot);
}

static inline bool wc_smview_warp_at_barrier(const wc_smview *v, unsigned slot)
{
    return *(const uint8_t *)wc_view_at(v->warp_at_barrier, slot) != 0;
}

/* The op (wc_op) of the instruction the warp in `slot` issues next. */
static inline unsigned wc_smview_warp_next_op(const wc_smview *v, unsigned slot)
{
    return *(const uint8_t *)wc_view_at(v->warp_op, slot);
}

/* The linear block id of block slot `b`. */
static inline uint64_t wc_smview_block_id(const wc_smview *v, unsigned b)
{
    return *(const uint64_t *)wc_view_at(v->block_id, b);
}

/* How many warps scheduler `i` holds (its running warps). */
static inline unsigned wc_smview_sched_count(const wc_smview *v, unsigned i)
{
    return *(const unsigned *)wc_view_at(v->sched_n, i);
}

/* The k-th warp slot of scheduler `i`, oldest first. */
static inline unsigned wc_smview_sched_warp(const wc_smview *v, unsigned i, unsigned k)
{
    return (*(const uint16_t *const *)wc_view_at(v->sched_warps, i))[k];
}

#endif
