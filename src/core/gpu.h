/*
 * gpu.h - internal state of the cycle engine: the GPU (kernel, dispatch,
 * event heap, memory side) and its SMs (warps, scoreboard, schedulers, memory
 * stage, L1).  sm.c runs one SM for one cycle; gpu.c runs the clock.
 */
#ifndef WC_CORE_GPU_H
#define WC_CORE_GPU_H

#include "core/events.h"
#include "core/sched.h"
#include "mem/mem.h"
#include "warpcache/coalescer.h"
#include "warpcache/sim.h"

#define WC_MAX_PENDING     16 /* scoreboard entries per warp */
#define WC_NO_REC          UINT32_MAX
#define WC_MAX_SLOTS       256 /* warp slots per SM (8192 threads) */
#define WC_MAX_BLOCK_WARPS 32  /* 1024 threads per block, CUDA's limit */

enum { W_FREE = 0, W_ACTIVE, W_DRAINING };

/* A register write not yet done: ready at `ready` (WC_NEVER while a load is out). */
typedef struct wc_pending {
    uint64_t ready;
    uint16_t reg;
} wc_pending;

typedef struct wc_warp {
    uint32_t block; /* block slot in the SM */
    uint32_t wib;   /* warp index within its block */
    uint8_t state;
    uint8_t at_barrier;
    uint8_t npend;
    wc_pending pend[WC_MAX_PENDING];
    wc_winst inst; /* next instruction to issue */
} wc_warp;

typedef struct wc_block {
    bool used;
    uint64_t id;     /* linear block id */
    void *src_block; /* the source's handle */
    uint32_t nwarps, live, at_barrier;
    uint16_t slot[WC_MAX_BLOCK_WARPS]; /* warp i of the block runs in warp slot slot[i] */
} wc_block;

/* A load in flight: completes when every request has been answered. */
typedef struct wc_load {
    uint64_t ready;
    uint32_t outstanding;
    uint32_t next_free;
    uint16_t warp;
    uint8_t all_sent, nregs;
    uint16_t regs[WC_MAX_DST];
} wc_load;

typedef struct wc_sim wc_gpu;

typedef struct wc_sm {
    unsigned id;
    wc_gpu *gpu;
    wc_l1 *l1;
    wc_warp *warps;
    uint64_t *gate;     /* per slot: earliest cycle of the next issue (WC_NEVER: parked) */
    uint8_t *needs_mem; /* per slot: the next instruction needs the memory stage */
    unsigned n_slots;
    wc_block *blocks;
    unsigned n_block_slots, used_blocks;
    wc_sched *sched;
    wc_sched **slot_sched; /* per slot: its scheduler, sched[slot % n_sched] (no division) */
    unsigned n_sched;
    /* memory stage: one coalesced request per cycle into the L1 */
    bool mem_busy;
    unsigned nreq, next_req;
    uint32_t mem_load;
    uint64_t mem_retry_at, stall_from;
    wc_mem_req reqs[WC_MAX_REQS_PER_INST];
    /* loads in flight */
    wc_load *loads;
    uint32_t n_loads, free_load;
    /* draining warps: stream ended, waiting for their loads */
    uint16_t *draining;
    unsigned n_draining;
    double port_free; /* injection port into the interconnect */
    uint64_t wake;    /* next cycle this SM has something to do */
    uint64_t drain_wake;
    uint64_t now;
    /* counters (cumulative) */
    uint64_t warp_insts, thread_insts, gmem_reqs, stall_cycles;
    uint64_t op_count[WC_OP__COUNT];
} wc_sm;

struct wc_sim {
    wc_config cfg;
    wc_mem mem;
    wc_sm *sms;
    unsigned n_sm;
    wc_heap events;
    uint64_t *live; /* bitset: SMs whose wake time is not WC_NEVER */
    const wc_l1_ops *l1_ops;
    void *l1_shared; /* the organisation's block shared by every SM's L1 (or NULL) */
    const wc_sched_ops *sched_ops;
    wc_l1_listener listeners[8];
    unsigned n_listeners;
    wc_l1_listener fanout; /* calls every listener */
    wc_progress_fn progress;
    void *progress_ctx;
    /* current kernel */
    wc_source *src;
    wc_kernel k;
    uint64_t n_blocks, next_block, blocks_done;
    unsigned max_blocks_per_sm, warps_per_block;
    unsigned rr; /* dispatch round-robin pointer */
    bool failed;
    bool truncated; /* stopped by -max_cycles */
    wc_err *err;
};

/* sm.c */
int wc_sm_init(wc_sm *sm, wc_gpu *gpu, unsigned id, wc_err *err);
void wc_sm_free(wc_sm *sm);
void wc_sm_cycle(wc_sm *sm, uint64_t now);
bool wc_sm_block_fits(const wc_sm *sm);
int wc_sm_start_block(wc_sm *sm, uint64_t block_id, uint64_t now);
void wc_sm_deliver(wc_sm *sm, const wc_event *ev);

#endif
