/*
 * mem.h - the memory side below the L1s: interconnect, L2 partitions, DRAM.
 *
 * The model is "timestamped resources": each port, L2 partition, MSHR pool
 * and DRAM channel remembers when it is next free.  When a request leaves an
 * SM, wc_mem_access walks it through interconnect -> L2 -> (DRAM) -> L2 ->
 * interconnect in one call, reserving each resource in turn, and returns the
 * cycle its response reaches the SM.  Nothing ticks per cycle, yet
 * congestion shows: a flood of misses queues behind busy ports, full L2 MSHR
 * pools and saturated DRAM channels, and so costs more than a trickle.
 * With -icnt_model islip or local the replies instead cross a router
 * simulated cycle by cycle (xbar.h, localxbar.h), and wc_mem_access hands
 * them over to it.
 * docs/design.md discusses what this simplifies (e.g. L2 state is updated in
 * send order, not arrival order).
 */
#ifndef WC_MEM_MEM_H
#define WC_MEM_MEM_H

#include "mem/addrdec.h"
#include "mem/xbar.h"
#include "warpcache/cache.h"
#include "warpcache/config.h"
#include "warpcache/stats.h"

#define WC_MEM_PKT_UNITS 64 /* payloads up to 64 x 32 B have precomputed packet sizes */

/* Cumulative counters (per-kernel figures are differences of snapshots). */
typedef struct wc_mem_counters {
    uint64_t l2_accesses, l2_hits, l2_misses, l2_read_bytes, l2_write_bytes, l2_writebacks;
    uint64_t up_packets, up_bytes, down_packets, down_bytes; /* L1->L2, L2->L1 */
    /* The seeds' count (000: "1 request packet + n data packets of 32 B"):
     * per L1 request, 1 + the 32 B units of data it carries up; per response,
     * the 32 B units of data it carries down. */
    uint64_t up_units, down_units;
    uint64_t dram_reads, dram_writes;
} wc_mem_counters;

/* A DRAM channel: a queue served at a fixed bandwidth after a fixed latency. */
typedef struct wc_dram {
    double free_at;         /* core cycles */
    double cycles_per_byte; /* core cycles to move one byte */
    double latency;         /* core cycles */
    uint32_t atom;          /* -dram_atoms 1: bytes a request moves at least; 0: any */
} wc_dram;

/* One L2 sub-partition. */
typedef struct wc_l2 {
    wc_tag_array tags;
    double in_free, out_free; /* interconnect ports at the partition */
    double busy_until;        /* tag pipeline: one access per L2 cycle */
    /* When each MSHR entry frees: a ring sorted ascending from mshr_head
     * (memsys.c, l2_mshr_reserve). */
    uint64_t *mshr_free;
    uint32_t mshr_head;
    struct wc_dram *ch; /* the DRAM channel behind this sub-partition */
    /* L2 lines are only ever allocated (never invalidated), into the lowest
     * invalid way, so a set's valid ways are 0..n_valid-1.  tagv mirrors their
     * tags densely: a lookup reads 8 bytes per way instead of a wc_line. */
    uint64_t *tagv;    /* nsets x assoc */
    uint32_t *n_valid; /* per set */
    /* One byte of each valid way's tag hash (memsys.c, tag_fp), fp_stride
     * (assoc rounded up to 8) bytes a set: a lookup compares eight ways a
     * step and reads tagv only where a byte matches. */
    uint8_t *fp;
    uint32_t fp_stride;
    /* LRU with at most 256 ways: each set's valid ways in a circular list
     * from the least recently used (lru_head[set]) to the most, so the
     * victim of a full set is read, not searched (memsys.c, l2_pick).
     * NULL otherwise. */
    uint8_t *lru_next, *lru_prev; /* nsets x assoc */
    uint8_t *lru_head;            /* per set */
    uint32_t n_mshr;
    char write_policy, write_alloc, type;
    bool lru; /* LRU replacement: a hit stamps the line in place (memsys.c l2_touch) */
} wc_l2;

typedef struct wc_mem {
    const wc_config *cfg;
    uint32_t n_l2, n_sm;
    wc_l2 *l2;
    wc_dram *dram;
    double *sm_in_free; /* per-SM ejection port */
    uint32_t flit, ctrl, latency, flits_per_cycle;
    uint32_t l2_latency; /* core cycles (the option counts L2 cycles) */
    double l2_cycle;     /* core cycles per L2 cycle */
    uint32_t l2_step;    /* l2_cycle when a whole number (1..1024), else 0 */
    wc_addrdec addrdec;  /* address -> sub-partition and address within it */
    /* -icnt_model islip / local: replies cross this crossbar (xbar.h) and
     * wc_mem_access answers WC_MEM_DEFERRED with the request's record in
     * `rec`; NULL with the timestamped ports (the default). */
    wc_xbar *xbar;
    uint32_t rec;
    /* The latest cycle at which a write's acknowledgement reaches its SM,
     * set by every write wc_mem_access takes (read by -exit_store_acks) */
    uint64_t write_ack;
    bool failed; /* out of memory in the crossbar */
    /* -icnt_model local: GPGPU-Sim's local crossbar moves a packet of any
     * size in one interconnect cycle, so a packet holds a port one cycle
     * (pkt_cycles[] and wc_mem_port_cycles) */
    bool per_packet;
    uint32_t line_log2;
    uint32_t l2_all;   /* every 32 B sector of an L2 line */
    double icnt_cycle; /* core cycles per interconnect cycle */
    /* For a payload of n 32 B units (n = 0..64): the packet's flits and the
     * core cycles it holds a port (interconnect cycles converted), computed
     * once by the same expressions (so to the same values) to keep divisions
     * off the per-request path; other payload sizes (chunks under 32 B) take
     * the same expressions in wc_mem_pkt_flits / wc_mem_pkt_cycles. */
    uint32_t pkt_flits[WC_MEM_PKT_UNITS + 1];
    double pkt_cycles[WC_MEM_PKT_UNITS + 1];
    wc_mem_counters c;
} wc_mem;

int wc_mem_init(wc_mem *m, const wc_config *cfg, wc_err *err);
void wc_mem_free(wc_mem *m);

/* Packet size in flits of `bytes` of payload plus the header. */
static inline uint32_t wc_mem_flits(const wc_mem *m, uint32_t payload)
{
    return (m->ctrl + payload + m->flit - 1) / m->flit;
}

/* Core cycles a packet of `flits` flits holds a port (pkt_cycles[] holds
 * these for whole 32 B units). */
static inline double wc_mem_port_cycles(const wc_mem *m, uint32_t flits)
{
    if (m->per_packet) return m->icnt_cycle;
    return (double)flits / m->flits_per_cycle * m->icnt_cycle;
}

/* Flits of a packet with `payload` bytes (0: a header-only request). */
static inline uint32_t wc_mem_pkt_flits(const wc_mem *m, uint32_t payload)
{
    if ((payload & 31) == 0 && payload <= 32u * WC_MEM_PKT_UNITS) return m->pkt_flits[payload >> 5];
    return wc_mem_flits(m, payload);
}

/* Cycles a packet with `payload` bytes holds a port. */
static inline double wc_mem_pkt_cycles(const wc_mem *m, uint32_t payload)
{
    if ((payload & 31) == 0 && payload <= 32u * WC_MEM_PKT_UNITS)
        return m->pkt_cycles[payload >> 5];
    return wc_mem_port_cycles(m, wc_mem_flits(m, payload));
}

/* Bytes a request carries towards the L2 when it moves `chunks`: data for
 * writes, write-backs and atomics, nothing (a header) for reads. */
static inline uint32_t wc_mem_up_payload(const wc_mem_req *req, uint64_t chunks)
{
    bool data = (req->flags & (WC_REQ_WRITE | WC_REQ_WRITEBACK | WC_REQ_ATOMIC)) != 0;
    return data ? wc_chunk_bytes(chunks, req->chunk_log2) : 0;
}

#define WC_MEM_DEFERRED (UINT64_MAX - 1) /* see wc_mem_access */

/* The request left SM `sm` at cycle `leave` moving `chunks` of its line (see
 * wc_mem_req).  Returns the cycle the response (data, or an atomic's result)
 * reaches the SM, or 0 for requests that need no response (writes,
 * write-backs), or, with -icnt_model islip, WC_MEM_DEFERRED: the response's
 * cycle comes from the crossbar (m->xbar) for record m->rec.  A request whose chunks span several
 * L2 lines is split into one access per L2 line, each its own packet, answered when the last is. */
uint64_t wc_mem_access(wc_mem *m, unsigned sm, const wc_mem_req *req, uint64_t chunks,
                       uint64_t leave);

/* The bytes a DRAM transfer of `sectors` (32 B chunks of one L2 line) holds
 * channel `ch` for, from an L2 of type `l2_type` ('S' sectored).  GPGPU-Sim
 * moves whole atoms (dram.cc: dram_atom_size = burst length x bus width x
 * chips, 64 B on the GTX480 files) and a sectored L2 sends each 32 B sector
 * as its own request: with -dram_atoms 1 (ch->atom set) a sector costs an
 * atom, and a line-based L2's one request is rounded up to atoms. */
static inline uint32_t wc_dram_request_bytes(const wc_dram *ch, char l2_type, uint16_t sectors)
{
    /* wc_chunk_count, not the builtin: baseline x86-64 makes that a libgcc call */
    uint32_t n = wc_chunk_count(sectors), a = ch->atom;
    if (!a) return 32u * n;
    if (l2_type == 'S') return n * ((32u + a - 1) / a * a);
    return (32u * n + a - 1) / a * a;
}

/* (uint64_t)ceil(x) for a cycle time x >= 0, cheaper than ceil()'s software
 * rounding (baseline x86-64 has no rounding instruction): truncate, then add
 * one when something was cut off.  Exact for every x below 2^64.  Below 2^63
 * (every time a run reaches) the conversions go through int64_t, one
 * instruction each way, where uint64_t's take a test and a branch more; the
 * values are the same, since both types hold every such c exactly. */
static inline uint64_t wc_ceil_cycle(double x)
{
    if (__builtin_expect(x < 9223372036854775808.0, 1)) { /* 2^63 */
        int64_t c = (int64_t)x;
        return (uint64_t)c + ((double)c < x);
    }
    uint64_t c = (uint64_t)x;
    return c + ((double)c < x);
}

/* Serves `bytes` on a DRAM channel no earlier than `t`; returns completion. */
double wc_dram_transfer(wc_dram *d, double t, uint32_t bytes);

/* GPGPU-Sim's -gpgpu_dram_timing_opt ("nbk=16:CCD=2:RCD=12:...", blanks and
 * line breaks allowed): *rcd and *cl get tRCD and tCL, which must be there.
 * The configuration checks the option with it; the memory side reads the
 * two values with it once, when it is built.  Reason only on error. */
int wc_dram_timing_parse(const char *s, uint32_t *rcd, uint32_t *cl, wc_err *err);

#endif
