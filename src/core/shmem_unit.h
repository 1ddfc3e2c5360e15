/*
 * shmem_unit.h - the LD/ST unit as shared-memory instructions see it:
 * GPGPU-Sim's bank conflicts and the one dispatch register they pass
 * through (shmem_unit.c).  Off unless -shmem_issue_limit or
 * -shmem_bank_conflicts is 1; the SM (sm.c) asks wc_shmem_waits before a
 * shared-memory instruction issues and wc_shmem_issue when it does.
 */
#ifndef WC_CORE_SHMEM_UNIT_H
#define WC_CORE_SHMEM_UNIT_H

#include "warpcache/config.h"
#include "warpcache/trace.h"

typedef struct wc_shmem_unit {
    bool on;        /* the unit is modelled (either option) */
    bool conflicts; /* -shmem_bank_conflicts: the initiation interval is the conflict degree */
    bool limited_broadcast;
    uint32_t banks, warp_parts;
    uint64_t free_at; /* first cycle the dispatch register takes the next instruction */
} wc_shmem_unit;

void wc_shmem_init(wc_shmem_unit *u, const wc_config *cfg);

/* GPGPU-Sim's bank-conflict degree of a shared-memory instruction: the
 * cycles it holds the LD/ST unit's dispatch register (1 when conflict-free,
 * 32 when every lane reads a different word of one bank); at least 1. */
unsigned wc_shmem_conflict_degree(const wc_shmem_unit *u, const wc_winst *in);

/* The shared-memory instruction `op` cannot issue at `now`: the unit is
 * still busy (it frees at u->free_at). */
static inline bool wc_shmem_waits(const wc_shmem_unit *u, unsigned op, uint64_t now)
{
    return (op == WC_OP_LDS || op == WC_OP_STS) && u->free_at > now;
}

/* A shared-memory instruction issues at `now` (wc_shmem_waits said no):
 * it takes the unit for its initiation interval; returns the cycles its
 * result comes later than a conflict-free one's. */
unsigned wc_shmem_issue(wc_shmem_unit *u, const wc_winst *in, uint64_t now);

#endif
