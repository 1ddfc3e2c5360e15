/*
 * memstage.h - the memory-stage seam: what sits between issue and the L1.
 *
 * When a warp issues a global/local memory instruction the coalescer splits
 * it into requests and hands them to the SM's memory stage (`accept`).  Each
 * cycle in which it has work the stage presents requests to the L1 through
 * the SM (wc_sm_present: the L1 access with the SM's bookkeeping, events and
 * knobs), may send a request around the L1 (wc_sm_send_around: the data goes
 * straight back to the warp), and says when an instruction's requests have
 * all been presented (wc_sm_inst_sent).  While `full` is set memory
 * instructions wait at issue; `retry_at` is the next cycle the stage needs to
 * run (WC_NEVER while it waits for something only a fill or a knob change can
 * bring: the SM sets it to that cycle).  A stage that holds requests of many
 * warps chooses which reaches the L1 each cycle (MRPB); `barrier` tells it
 * that a warp arrived at a barrier, so it can keep a block's requests from
 * crossing one.
 *
 * The default, "inorder", is the Fermi-class stage: one instruction's
 * requests, one per cycle, retried on a reservation fail.  A new stage is one
 * file with a wc_mstage_ops plus one line in memstage.c, chosen with the
 * option -mem_stage NAME[:params].
 */
#ifndef WC_CORE_MEMSTAGE_H
#define WC_CORE_MEMSTAGE_H

#include "warpcache/cache.h"
#include "warpcache/params.h"

typedef struct wc_sm wc_sm;

typedef struct wc_mstage {
    const struct wc_mstage_ops *ops;
    wc_sm *sm;
    bool full;         /* memory instructions cannot issue (read by the schedulers) */
    bool holding;      /* requests are waiting in the stage */
    uint64_t retry_at; /* next cycle `cycle` has work; WC_NEVER: until a fill or knob change */
} wc_mstage;

typedef struct wc_mstage_ops {
    const char *name;
    const char *help;
    /* Its parameters (-mem_stage NAME:key=value,...), NULL-terminated; NULL: none. */
    const wc_param_desc *params;
    /* Creates the stage of one SM from its parsed parameters (read by name:
     * wc_param_u ...).  It may subscribe L1 listeners
     * (wc_sim_add_l1_listener(sm->gpu)). */
    wc_mstage *(*create)(wc_sm *sm, const wc_param_values *params, wc_err *err);
    void (*destroy)(wc_mstage *ms);
    /* Takes the n >= 1 requests of one instruction of warp `slot`; `load`
     * is its load record (WC_NO_REC for stores).  Only called while !full.
     * `reqs` is the SM's coalescer buffer: it is rewritten by the next
     * accept, so a stage that is not full while it holds requests copies
     * them. */
    void (*accept)(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n, uint32_t load,
                   uint64_t now);
    /* Runs one cycle; called when holding && retry_at <= now. */
    void (*cycle)(wc_mstage *ms, uint64_t now);
    /* Optional: warp `slot` arrived at a barrier, or retired while other
     * warps of its block live (which may release their barrier). */
    void (*barrier)(wc_mstage *ms, unsigned slot, uint64_t now);
    /* Optional: the stage's own cumulative counters, emitted as extras
     * (summed over SMs; called at each kernel's statistics snapshot, never
     * per request). */
    void (*stats)(const wc_mstage *ms, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx);
} wc_mstage_ops;

const wc_mstage_ops *wc_mstage_find(const char *name);
const wc_mstage_ops *const *wc_mstage_list(size_t *count);

/* Parses -mem_stage "NAME[:key=value,...]" ("" = inorder): *ops and the
 * checked parameters; the reason only on error. */
int wc_mstage_parse(const char *spec, const wc_mstage_ops **ops, wc_param_values *params,
                    wc_err *err);

/* What the SM offers a stage (wc_sm_present, wc_sm_send_around,
 * wc_sm_inst_sent, wc_sm_stage_freed, wc_sm_add_stall) is in memstage_sm.h:
 * stages include it. */

#endif
