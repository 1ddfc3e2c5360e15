/*
 * touchmap.c - the line -> toucher hash map of the L1 analyses (touchmap.h).
 */
#include <stdlib.h>

#include "analysis/touchmap.h"

/* Line addresses are dense in their low bits: mix them so neighbouring lines
 * spread over the table (a multiplicative hash, high bits taken). */
static inline uint64_t slot_of(const wc_touchmap *m, uint64_t key)
{
    return (key * 0x9e3779b97f4a7c15ull >> 17) & m->mask;
}

void wc_touchmap_free(wc_touchmap *m)
{
    free(m->e);
    m->e = NULL;
    m->mask = 0;
    m->used = 0;
}

wc_toucher *wc_touchmap_get(const wc_touchmap *m, uint64_t line)
{
    if (!m->e) return NULL;
    uint64_t key = line + 1;
    for (uint64_t i = slot_of(m, key);; i = (i + 1) & m->mask) {
        if (m->e[i].key == key) return &m->e[i].who;
        if (m->e[i].key == 0) return NULL;
    }
}

static int grow(wc_touchmap *m)
{
    uint64_t cap = m->e ? 2 * (m->mask + 1) : 1024;
    wc_touchmap_entry *e = calloc(cap, sizeof *e);
    if (!e) return -1;
    wc_touchmap old = *m;
    m->e = e;
    m->mask = cap - 1;
    for (uint64_t i = 0; old.e && i <= old.mask; i++) {
        if (!old.e[i].key) continue;
        uint64_t j = slot_of(m, old.e[i].key);
        while (m->e[j].key) j = (j + 1) & m->mask;
        m->e[j] = old.e[i];
    }
    free(old.e);
    return 0;
}

wc_toucher *wc_touchmap_put(wc_touchmap *m, uint64_t line, bool *is_new)
{
    wc_toucher *w = wc_touchmap_get(m, line);
    *is_new = w == NULL;
    if (w) return w;
    if (2 * (m->used + 1) > (m->e ? m->mask + 1 : 0) && grow(m) < 0) return NULL;
    uint64_t key = line + 1, i = slot_of(m, key);
    while (m->e[i].key) i = (i + 1) & m->mask;
    m->e[i].key = key;
    m->used++;
    return &m->e[i].who;
}

/* Backward-shift deletion: entries after the hole that probed past it move
 * back, so every entry stays reachable from its home slot without
 * tombstones. */
bool wc_touchmap_del(wc_touchmap *m, uint64_t line)
{
    if (!m->e) return false;
    uint64_t key = line + 1, i = slot_of(m, key);
    while (m->e[i].key != key) {
        if (m->e[i].key == 0) return false;
        i = (i + 1) & m->mask;
    }
    for (uint64_t j = (i + 1) & m->mask; m->e[j].key; j = (j + 1) & m->mask) {
        uint64_t home = slot_of(m, m->e[j].key);
        /* e[j] may fill the hole at i unless its home lies cyclically in (i, j]. */
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (stays) continue;
        m->e[i] = m->e[j];
        i = j;
    }
    m->e[i].key = 0;
    m->used--;
    return true;
}
