/*
 * mshr.c - miss status holding registers: a table of `n_entries` entries,
 * each tracking one line fetched from below and the cookies of up to
 * `max_merge` requests waiting for it (the first request counts).  Entry i's
 * cookies live at waiters[i * max_merge ...].
 *
 * Tables are small (GPGPU-Sim L1s have 32-64 entries), so lookup is a linear
 * scan over a dense array of 24-byte entries; it only runs on non-hit paths.
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/cache.h"

int wc_mshr_init(wc_mshr *m, uint32_t entries, uint32_t max_merge)
{
    memset(m, 0, sizeof *m);
    if (entries == 0 || max_merge == 0 || (uint64_t)entries * max_merge > (1u << 24)) return -1;
    m->e = calloc(entries, sizeof *m->e);
    m->waiters = calloc((size_t)entries * max_merge, sizeof *m->waiters);
    if (!m->e || !m->waiters) {
        wc_mshr_free(m);
        return -1;
    }
    m->n_entries = entries;
    m->max_merge = max_merge;
    return 0;
}

void wc_mshr_free(wc_mshr *m)
{
    free(m->e);
    free(m->waiters);
    m->e = NULL;
    m->waiters = NULL;
    m->n_entries = m->used = 0;
}

int wc_mshr_find(const wc_mshr *m, uint64_t addr)
{
    if (m->used == 0) return -1;
    for (uint32_t i = 0; i < m->n_entries; i++)
        if (m->e[i].addr == addr && m->e[i].n_merged) return (int)i;
    return -1;
}

wc_fail_reason wc_mshr_probe(const wc_mshr *m, uint64_t addr)
{
    int i = wc_mshr_find(m, addr);
    if (i >= 0) return m->e[i].n_merged < m->max_merge ? WC_FAIL_NONE : WC_FAIL_MSHR_MERGE;
    return m->used < m->n_entries ? WC_FAIL_NONE : WC_FAIL_MSHR_ENTRY;
}

static int mshr_new_entry(wc_mshr *m, uint64_t addr)
{
    for (uint32_t i = 0; i < m->n_entries; i++) {
        wc_mshr_entry *e = &m->e[i];
        if (e->n_merged) continue;
        memset(e, 0, sizeof *e);
        e->addr = addr;
        e->first = i * m->max_merge;
        m->used++;
        return (int)i;
    }
    return -1;
}

int wc_mshr_add(wc_mshr *m, uint64_t addr, uint32_t cookie, bool *is_new, wc_fail_reason *why)
{
    int i = wc_mshr_find(m, addr);
    bool created = false;
    if (i >= 0) {
        if (m->e[i].n_merged >= m->max_merge) {
            if (why) *why = WC_FAIL_MSHR_MERGE;
            return -1;
        }
    } else {
        i = m->used < m->n_entries ? mshr_new_entry(m, addr) : -1;
        if (i < 0) {
            if (why) *why = WC_FAIL_MSHR_ENTRY;
            return -1;
        }
        created = true;
    }
    wc_mshr_entry *e = &m->e[i];
    m->waiters[e->first + e->n_merged++] = cookie;
    if (is_new) *is_new = created;
    if (why) *why = WC_FAIL_NONE;
    return i;
}

int wc_mshr_release(wc_mshr *m, uint64_t addr, uint32_t *out)
{
    int i = wc_mshr_find(m, addr);
    if (i < 0) return -1;
    wc_mshr_entry *e = &m->e[i];
    int n = (int)e->n_merged;
    if (out) memcpy(out, m->waiters + e->first, (size_t)n * sizeof *out);
    memset(e, 0, sizeof *e);
    m->used--;
    return n;
}
