/*
 * xbar.h - the reply network as GPGPU-Sim's booksim crossbar, cycle by cycle
 * (-icnt_model islip).
 *
 * GPGPU-Sim connects SMs and L2 sub-partitions through one booksim router
 * per direction (the .icnt files: topology fly, n = 1, one virtual channel,
 * iSLIP allocators, internal speedup 2).  warpcache's default interconnect
 * is a pair of timestamped ports per packet (memsys.c), which has the
 * channels' bandwidth but not the router's allocation: with one virtual
 * channel an input forwards one packet at a time, a packet first wins its
 * output's virtual channel (VC allocation) and only then the switch, and an
 * input whose head packet lost the output waits with everything behind it.
 * For packets of one flit - a sectored L2 answers a 128 B line as four 32 B
 * packets - those per-packet steps, not the flits, bound what a port moves
 * (docs/fidelity.md measures it: Accel-Sim's invert_mapping takes 186341
 * cycles with the GTX480 file's sectored L2 and 123327 with a line-based
 * one).
 *
 * This file models the L2 -> SM direction that way; the SM -> L2 direction
 * keeps the timestamped ports.  The memory side (memsys.c) hands each reply
 * packet over with the cycle it is ready at its L2 and the request record it
 * answers; the engine runs the crossbar over every interconnect cycle in
 * which it holds packets (wc_xbar_advance, wc_xbar_next), in one call for
 * many cycles once a response can be due (wc_xbar_due), and turns completed
 * records into responses.
 */
#ifndef WC_MEM_XBAR_H
#define WC_MEM_XBAR_H

#include "mem/localxbar.h"
#include "warpcache/common.h"
#include "warpcache/params.h"

#define WC_XBAR_NONE UINT32_MAX /* a packet nobody waits for (a write's ack) */

typedef enum wc_xbar_kind {
    WC_XBAR_ISLIP, /* booksim's router (this file) */
    WC_XBAR_LOCAL  /* GPGPU-Sim 4.x's local crossbar (localxbar.c) */
} wc_xbar_kind;

typedef struct wc_xbar_params {
    wc_xbar_kind kind;
    uint32_t
        speedup_x100; /* router steps per interconnect cycle, x100 (booksim internal_speedup) */
    uint32_t out_buf; /* flits an output may hold towards its SM (booksim vc_buf_size) */
    wc_lxbar_params local; /* WC_XBAR_LOCAL: from the -icnt_* options (the caller sets them) */
} wc_xbar_params;

/* islip's parameters (-icnt_model islip:speedup=S,buf=N). */
extern const wc_param_desc wc_xbar_islip_params[];

/* Parses -icnt_model: "ports" (*is_xbar = false), "islip[:speedup=S][,buf=N]",
 * "local" (p->kind WC_XBAR_LOCAL; p->local is left to the caller), or
 * "auto": islip when `network_mode` is 1 (the configuration selects
 * GPGPU-Sim's booksim network, -network_mode 1), local when it is 2
 * (GPGPU-Sim 4.x's local crossbar), else ports.  Errors name the value and
 * the reason. */
int wc_xbar_parse(const char *spec, uint32_t network_mode, bool *is_xbar, wc_xbar_params *p,
                  wc_err *err);

typedef struct wc_xbar wc_xbar;

/* What the engine reads of a crossbar in every iteration of its loop,
 * without a call: a wc_xbar begins with it. */
typedef struct wc_xbar_head {
    uint64_t due; /* see wc_xbar_due */
} wc_xbar_head;

/* Every response the crossbar has not handed over yet reaches its SM at or
 * after this core cycle (with -icnt_model islip: its next cycle to simulate
 * plus the latency, WC_NEVER with no packet; 0 while completed records
 * wait to be handed over, and always 0 with -icnt_model local).  So a
 * caller that needs the responses arriving by core cycle `now` may leave
 * wc_xbar_advance uncalled while now < due: the router's cycles are the
 * same whichever calls simulate them (wc_xbar_run), and its completions
 * come in the same order. */
static inline uint64_t wc_xbar_due(const wc_xbar *x)
{
    return ((const wc_xbar_head *)(const void *)x)->due;
}

/* A crossbar from n_in L2 sub-partitions to n_out SMs, of p->kind; one
 * interconnect cycle is `icnt_cycle` core cycles; a packet's last flit
 * reaches its SM `latency` core cycles after it leaves the router. */
wc_xbar *wc_xbar_new(unsigned n_in, unsigned n_out, const wc_xbar_params *p, double icnt_cycle,
                     uint32_t latency, wc_err *err);
void wc_xbar_free(wc_xbar *x);

/* Opens a request record: the packets sent for it next (wc_xbar_send with
 * its id) answer one L1 request; it completes when wc_xbar_close has been
 * called and all of them have arrived.  Returns WC_XBAR_NONE when out of
 * memory (the caller reports it). */
uint32_t wc_xbar_open(wc_xbar *x);
void wc_xbar_close(wc_xbar *x, uint32_t rec);
/* Gives back a record no packet was sent for (a write: nothing answers). */
void wc_xbar_cancel(wc_xbar *x, uint32_t rec);

/* A packet of `flits` flits from L2 sub-partition `in` to SM `out`, at its
 * L2 port from core cycle `ready`; `eject` is the core cycles the SM takes
 * to take it in (its flits at the port's rate).  Returns -1 when out of
 * memory. */
int wc_xbar_send(wc_xbar *x, unsigned in, unsigned out, uint64_t ready, uint32_t flits,
                 double eject, uint32_t rec);

/* n packets as wc_xbar_send, packet k at its L2 port from core cycle
 * ready[k]: the same as n calls in that order (a sectored L2's answer to a
 * request, a packet per sector), queued at once. */
int wc_xbar_send_n(wc_xbar *x, unsigned in, unsigned out, const uint64_t *ready, unsigned n,
                   uint32_t flits, double eject, uint32_t rec);

/* wc_xbar_send_n with ready[k] = ready + k * step: a sectored L2's answer
 * when an L2 cycle is a whole number of core cycles, without the array
 * (and, one cycle apart on one clock, without converting each cycle). */
int wc_xbar_send_seq(wc_xbar *x, unsigned in, unsigned out, uint64_t ready, uint32_t step,
                     unsigned n, uint32_t flits, double eject, uint32_t rec);

/* Simulates every interconnect cycle that starts at or before core cycle
 * `now` (none twice). */
void wc_xbar_run(wc_xbar *x, uint64_t now);

/* The earliest core cycle at which the crossbar has something to do, or
 * WC_NEVER when it holds no packet. */
uint64_t wc_xbar_next(const wc_xbar *x);

/* Records completed by wc_xbar_run since the last call: their ids and the
 * core cycle each response reaches its SM.  Returns the count and points
 * *recs / *times at them (valid until the next call that runs, sends,
 * opens, closes or cancels); the ids are free for reuse after the call. */
size_t wc_xbar_done(wc_xbar *x, const uint32_t **recs, const uint64_t **times);

/* wc_xbar_run(x, now), then wc_xbar_done: the engine's call, one call
 * instead of two in every iteration of its loop. */
size_t wc_xbar_advance(wc_xbar *x, uint64_t now, const uint32_t **recs, const uint64_t **times);

/* Packets the crossbar still holds (ready or not). */
uint64_t wc_xbar_pending(const wc_xbar *x);

#endif
