/*
 * sdstack.h - LRU stack distances in O(log n) per access, the engine under the
 * reuse-distance model (seed 003, 003_ffafd1cb931cbd21.txt section 4.6) and the
 * miss-ratio curves.
 *
 * Bennett and Kruskal's method: every access of a line gets a new time stamp;
 * a Fenwick tree over stamps marks the most recent stamp of every line, so the
 * stack distance of a line (distinct lines touched since its last access) is
 * the number of marks after its stamp.  Stamps are renumbered densely when the
 * tree is full (compaction), so memory is proportional to the distinct lines of
 * a set, not to the trace length.
 *
 * Lines are numbered by a line map (line address -> dense slot).  A stack does
 * not own the slot -> stamp array: the caller passes it, so one map can serve
 * several stacks (one per cache set).
 */
#ifndef WC_MODEL_SDSTACK_H
#define WC_MODEL_SDSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WC_SD_INF  UINT64_MAX /* infinite distance */
#define WC_SD_NONE UINT32_MAX /* no slot */

/* ---- line map: 64-bit line address -> dense slot ------------------------- */

typedef struct wc_linemap {
    uint32_t *table; /* slot + 1, 0 = empty; open addressing, linear probing */
    uint64_t *keys;  /* line address of each slot */
    uint32_t mask;   /* table size - 1 */
    uint32_t n, cap; /* slots used / allocated in keys */
} wc_linemap;

int wc_linemap_init(wc_linemap *m, uint32_t expected);
void wc_linemap_free(wc_linemap *m);
/* Slot of `line`, creating it (then *created = true).  WC_SD_NONE on
 * out-of-memory.  Slots are 0, 1, 2 ... in order of first appearance. */
uint32_t wc_linemap_get(wc_linemap *m, uint64_t line, bool *created);
/* Slot of `line` or WC_SD_NONE. */
uint32_t wc_linemap_find(const wc_linemap *m, uint64_t line);

/* ---- one LRU stack -------------------------------------------------------- */

typedef struct wc_sdstack {
    uint32_t *tree;  /* Fenwick tree, 1-based, cap + 1 entries */
    uint32_t *owner; /* stamp -> slot, WC_SD_NONE when the stamp is stale */
    uint32_t cap;    /* stamps 1..cap */
    uint32_t next;   /* next stamp to hand out */
    uint32_t live;   /* marked stamps = distinct lines in the stack */
} wc_sdstack;

int wc_sdstack_init(wc_sdstack *s, uint32_t cap);
void wc_sdstack_free(wc_sdstack *s);

/* Distance of a line whose current stamp is `stamp` (0 = never in this stack). */
static inline uint64_t wc_sdstack_distance(const wc_sdstack *s, uint32_t stamp)
{
    if (!stamp) return WC_SD_INF;
    uint32_t before = 0; /* marks at stamps <= stamp */
    for (uint32_t i = stamp; i; i &= i - 1) before += s->tree[i];
    return (uint64_t)(s->live - before);
}

/* Moves slot to the top of the stack.  stamps[slot] is its current stamp (0 =
 * absent) and is updated; a compaction may rewrite stamps[] of every slot in
 * this stack.  Returns -1 on out-of-memory. */
int wc_sdstack_touch(wc_sdstack *s, uint32_t slot, uint32_t *stamps);

#endif
