/*
 * mshr.c - miss status holding registers: a table of `n_entries` entries,
 * each tracking one line fetched from below and the cookies of up to
 * `max_merge` requests waiting for it (the first request counts).  Entry i's
 * cookies live at waiters[i * max_merge ...].  An open-addressing index maps
 * line addresses to entries; each entry remembers its index position, so a
 * release after a lookup needs no second probe.
 *
 * Tables are small (GPGPU-Sim L1s have 32-64 entries), so lookup is a linear
 * scan over a dense array of 32-byte entries; it only runs on non-hit paths.
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/cache.h"

/* Hash of a line address into the index (Fibonacci hashing). */
static inline uint32_t slot_of(const wc_mshr *m, uint64_t addr)
{
    return (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 40) & m->slot_mask;
}

int wc_mshr_init(wc_mshr *m, uint32_t entries, uint32_t max_merge)
{
    memset(m, 0, sizeof *m);
    if (entries == 0 || max_merge == 0 || (uint64_t)entries * max_merge > (1u << 24)) return -1;
    uint32_t slots = 4;
    /* Load factor <= 1/4: a full table (a streaming miss path keeps every
     * entry taken) then has short probe runs, which a release walks to
     * close its hole.  Where an entry sits in the index changes nothing
     * else: entry numbers come from the free list. */
    while (slots < 4 * entries) slots *= 2;
    m->e = calloc(entries, sizeof *m->e);
    m->waiters = calloc((size_t)entries * max_merge, sizeof *m->waiters);
    m->slot = malloc(slots * sizeof *m->slot);
    m->free_list = malloc(entries * sizeof *m->free_list);
    if (!m->e || !m->waiters || !m->slot || !m->free_list) {
        wc_mshr_free(m);
        return -1;
    }
    m->n_entries = entries;
    m->max_merge = max_merge;
    m->slot_mask = slots - 1;
    for (uint32_t i = 0; i < slots; i++) m->slot[i] = -1;
    /* Lowest entry first, so entry numbers are assigned as in a linear scan. */
    for (uint32_t i = 0; i < entries; i++) m->free_list[i] = entries - 1 - i;
    return 0;
}

void wc_mshr_free(wc_mshr *m)
{
    free(m->e);
    free(m->waiters);
    free(m->slot);
    free(m->free_list);
    m->e = NULL;
    m->waiters = NULL;
    m->slot = NULL;
    m->free_list = NULL;
    m->n_entries = m->used = 0;
}

/* Index position holding `addr`, or the empty position where it would go. */
static inline uint32_t slot_find(const wc_mshr *m, uint64_t addr)
{
    uint32_t s = slot_of(m, addr);
    while (m->slot[s] >= 0 && m->e[m->slot[s]].addr != addr) s = (s + 1) & m->slot_mask;
    return s;
}

int wc_mshr_find(const wc_mshr *m, uint64_t addr)
{
    return m->slot[slot_find(m, addr)];
}

int wc_mshr_lookup(const wc_mshr *m, uint64_t addr, uint32_t *pos)
{
    *pos = slot_find(m, addr);
    return m->slot[*pos];
}

int wc_mshr_insert(wc_mshr *m, uint32_t pos, uint64_t addr, uint32_t cookie)
{
    if (m->used == m->n_entries) return -1;
    int i = (int)m->free_list[m->n_entries - 1 - m->used++];
    wc_mshr_entry *e = &m->e[i];
    memset(e, 0, sizeof *e);
    e->addr = addr;
    e->pos = pos;
    e->n_merged = 1;
    m->slot[pos] = i;
    m->waiters[(uint32_t)i * m->max_merge] = cookie;
    return i;
}

wc_fail_reason wc_mshr_probe(const wc_mshr *m, uint64_t addr)
{
    int i = wc_mshr_find(m, addr);
    if (i >= 0) return m->e[i].n_merged < m->max_merge ? WC_FAIL_NONE : WC_FAIL_MSHR_MERGE;
    return m->used < m->n_entries ? WC_FAIL_NONE : WC_FAIL_MSHR_ENTRY;
}

int wc_mshr_add(wc_mshr *m, uint64_t addr, uint32_t cookie, bool *is_new, wc_fail_reason *why)
{
    uint32_t s = slot_find(m, addr);
    int i = m->slot[s];
    bool created = false;
    if (i >= 0) {
        if (m->e[i].n_merged >= m->max_merge) {
            if (why) *why = WC_FAIL_MSHR_MERGE;
            return -1;
        }
    } else {
        if (m->used == m->n_entries) {
            if (why) *why = WC_FAIL_MSHR_ENTRY;
            return -1;
        }
        i = (int)m->free_list[m->n_entries - 1 - m->used++];
        wc_mshr_entry *e = &m->e[i];
        memset(e, 0, sizeof *e);
        e->addr = addr;
        e->pos = s;
        m->slot[s] = i;
        created = true;
    }
    wc_mshr_entry *e = &m->e[i];
    m->waiters[(uint32_t)i * m->max_merge + e->n_merged++] = cookie;
    if (is_new) *is_new = created;
    if (why) *why = WC_FAIL_NONE;
    return i;
}

/* Removes index position s, shifting later members of its probe run back
 * (deletion without tombstones). */
static void slot_delete(wc_mshr *m, uint32_t s)
{
    uint32_t hole = s;
    for (uint32_t j = (s + 1) & m->slot_mask; m->slot[j] >= 0; j = (j + 1) & m->slot_mask) {
        uint32_t home = slot_of(m, m->e[m->slot[j]].addr);
        /* Move j into the hole unless its home lies cyclically in (hole, j]. */
        bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            m->slot[hole] = m->slot[j];
            m->e[m->slot[hole]].pos = hole;
            hole = j;
        }
    }
    m->slot[hole] = -1;
}

int wc_mshr_release(wc_mshr *m, uint64_t addr, uint32_t *out)
{
    int i = m->slot[slot_find(m, addr)];
    return i < 0 ? -1 : wc_mshr_release_entry(m, i, out);
}

/* The entry's waiter slots are left as they are: until the entry is used
 * again its cookies can be read there (the L1 core answers them from there,
 * out = NULL). */
int wc_mshr_release_entry(wc_mshr *m, int i, uint32_t *out)
{
    wc_mshr_entry *e = &m->e[i];
    uint32_t s = e->pos;
    int n = (int)e->n_merged;
    const uint32_t *w = m->waiters + (uint32_t)i * m->max_merge;
    if (out) /* a handful of cookies: a loop beats a libc call */
        for (int k = 0; k < n; k++) out[k] = w[k];
    memset(e, 0, sizeof *e);
    slot_delete(m, s);
    m->used--;
    m->free_list[m->n_entries - 1 - m->used] = (uint32_t)i;
    return n;
}
