/*
 * names.c - the printable names of L1 request outcomes and reservation-fail
 * reasons.  The upper-case names are GPGPU-Sim's vocabulary (what users read
 * in its logs); the lower-case keys are the JSON field names of reports.
 */
#include "warpcache/cache.h"

static const char *const outcome_names[WC_OUTCOME__COUNT] = {
    "HIT", "HIT_RESERVED", "MISS", "SECTOR_MISS", "RESERVATION_FAIL", "BYPASSED",
};

static const char *const fail_names[WC_FAIL__COUNT] = {
    "NONE",
    "LINE_ALLOC_FAIL",
    "MISS_QUEUE_FULL",
    "MSHR_ENTRY_FAIL",
    "MSHR_MERGE_ENTRY_FAIL",
    "MSHR_RW_PENDING",
};

static const char *const fail_keys[WC_FAIL__COUNT] = {
    "none", "line_alloc", "miss_queue_full", "mshr_entry", "mshr_merge", "mshr_rw_pending",
};

const char *wc_outcome_name(wc_outcome o)
{
    return (unsigned)o < WC_OUTCOME__COUNT ? outcome_names[o] : "?";
}

const char *wc_fail_reason_name(wc_fail_reason r)
{
    return (unsigned)r < WC_FAIL__COUNT ? fail_names[r] : "?";
}

const char *wc_fail_reason_key(wc_fail_reason r)
{
    return (unsigned)r < WC_FAIL__COUNT ? fail_keys[r] : "?";
}
