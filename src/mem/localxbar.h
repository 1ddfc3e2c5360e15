/*
 * localxbar.h - GPGPU-Sim 4.x's local crossbar (-network_mode 2, its
 * local_interconnect.cc), the reply router cycle by cycle: what
 * -icnt_model local runs behind the wc_xbar interface (xbar.h).
 *
 * GPGPU-Sim's Volta, Turing and Ampere files replace booksim by two
 * xbar_routers, one per direction (-icnt_subnets 2).  A router has a FIFO
 * per input (at most -icnt_in_buffer_limit packets) and per output (at most
 * -icnt_out_buffer_limit); it knows packets, not flits (a packet of any
 * size moves in one cycle).  Each interconnect cycle it moves, for every
 * output with room, one packet whose input has it at its head:
 *  - iSLIP (-icnt_arbiter_algo 1): outputs in index order; an output takes
 *    the first input at or after its round-robin pointer whose head packet
 *    is for it, and the pointer moves past the winner (only every
 *    -icnt_grant_cycles busy cycles).  An input that won an output may win
 *    a later one in the same cycle with its next packet.
 *  - naive round robin (-icnt_arbiter_algo 0): inputs in order from one that
 *    advances every cycle; each input moves its head packet if the output
 *    has room and has taken nothing yet this cycle.
 * An L2 sub-partition pushes at most one reply per cycle into its input
 * (when that has room), and each SM takes at most one packet per cycle
 * out of its output.
 */
#ifndef WC_MEM_LOCALXBAR_H
#define WC_MEM_LOCALXBAR_H

#include "warpcache/common.h"

typedef struct wc_lxbar_params {
    uint32_t in_limit;     /* -icnt_in_buffer_limit, packets */
    uint32_t out_limit;    /* -icnt_out_buffer_limit, packets */
    uint32_t arbiter;      /* -icnt_arbiter_algo: 0 naive round robin, 1 iSLIP */
    uint32_t grant_cycles; /* -icnt_grant_cycles (>= 1) */
} wc_lxbar_params;

/* Called when a packet for request record `rec` reaches its SM at core
 * cycle t (the router is done with it). */
typedef void (*wc_lxbar_arrive_fn)(void *ctx, uint32_t rec, uint64_t t);

typedef struct wc_lxbar wc_lxbar;

/* A router from n_in L2 sub-partitions to n_out SMs; one interconnect cycle
 * is `icnt_cycle` core cycles; a packet reaches its SM `latency` core
 * cycles plus its `eject` after the SM took it from its output. */
wc_lxbar *wc_lxbar_new(unsigned n_in, unsigned n_out, const wc_lxbar_params *p, double icnt_cycle,
                       uint32_t latency, wc_lxbar_arrive_fn arrive, void *ctx, wc_err *err);
void wc_lxbar_free(wc_lxbar *x);

/* n packets from sub-partition `in` to SM `out`, packet k ready at its L2
 * from core cycle ready[k] (wc_xbar_send_n).  Returns -1 when out of
 * memory. */
int wc_lxbar_send_n(wc_lxbar *x, unsigned in, unsigned out, const uint64_t *ready, unsigned n,
                    double eject, uint32_t rec);

/* Simulates every interconnect cycle that starts at or before core cycle
 * `now` (none twice). */
void wc_lxbar_run(wc_lxbar *x, uint64_t now);

/* The earliest core cycle the router has something to do, or WC_NEVER. */
uint64_t wc_lxbar_next(const wc_lxbar *x);

/* Packets the router still holds (ready or not). */
uint64_t wc_lxbar_pending(const wc_lxbar *x);

#endif
