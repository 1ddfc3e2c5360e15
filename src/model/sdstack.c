/*
 * sdstack.c - Fenwick-tree LRU stacks and the line map (see sdstack.h).
 *
 * Seed 003 (003_ffafd1cb931cbd21.txt, section 4.6) uses a binary partial-sum
 * tree sized by the trace length; here the tree is sized by the distinct lines
 * and compacted when its stamps run out, which keeps memory proportional to the
 * working set and the cost O(log n) amortised per access.
 */
#include <stdlib.h>
#include <string.h>

#include "model/sdstack.h"

/* ---- line map ------------------------------------------------------------- */

static inline uint32_t line_hash(uint64_t line)
{
    line ^= line >> 33;
    line *= 0xff51afd7ed558ccdull;
    line ^= line >> 33;
    return (uint32_t)line;
}

int wc_linemap_init(wc_linemap *m, uint32_t expected)
{
    memset(m, 0, sizeof *m);
    uint32_t size = 64;
    while (size < expected * 2u && size < (1u << 31)) size <<= 1;
    m->table = calloc(size, sizeof *m->table);
    m->cap = size / 2;
    m->keys = malloc(m->cap * sizeof *m->keys);
    if (!m->table || !m->keys) {
        wc_linemap_free(m);
        return -1;
    }
    m->mask = size - 1;
    return 0;
}

void wc_linemap_free(wc_linemap *m)
{
    free(m->table);
    free(m->keys);
    memset(m, 0, sizeof *m);
}

/* Doubles the table (load factor stays <= 1/2). */
static int linemap_grow(wc_linemap *m)
{
    uint32_t size = (m->mask + 1) * 2;
    if (size == 0 || size > (1u << 31)) return -1;
    uint32_t *t = calloc(size, sizeof *t);
    uint64_t *k = realloc(m->keys, (size / 2) * sizeof *k);
    if (!t || !k) {
        free(t);
        if (k) m->keys = k;
        return -1;
    }
    m->keys = k;
    for (uint32_t slot = 0; slot < m->n; slot++) {
        uint32_t i = line_hash(k[slot]) & (size - 1);
        while (t[i]) i = (i + 1) & (size - 1);
        t[i] = slot + 1;
    }
    free(m->table);
    m->table = t;
    m->mask = size - 1;
    m->cap = size / 2;
    return 0;
}

uint32_t wc_linemap_find(const wc_linemap *m, uint64_t line)
{
    uint32_t i = line_hash(line) & m->mask;
    for (;;) {
        uint32_t v = m->table[i];
        if (!v) return WC_SD_NONE;
        if (m->keys[v - 1] == line) return v - 1;
        i = (i + 1) & m->mask;
    }
}

uint32_t wc_linemap_get(wc_linemap *m, uint64_t line, bool *created)
{
    uint32_t i = line_hash(line) & m->mask;
    for (;;) {
        uint32_t v = m->table[i];
        if (!v) break;
        if (m->keys[v - 1] == line) {
            *created = false;
            return v - 1;
        }
        i = (i + 1) & m->mask;
    }
    if (m->n >= m->cap) {
        if (linemap_grow(m) < 0) return WC_SD_NONE;
        i = line_hash(line) & m->mask;
        while (m->table[i]) i = (i + 1) & m->mask;
    }
    uint32_t slot = m->n++;
    m->keys[slot] = line;
    m->table[i] = slot + 1;
    *created = true;
    return slot;
}

/* ---- stacks ----------------------------------------------------------------- */

int wc_sdstack_init(wc_sdstack *s, uint32_t cap)
{
    memset(s, 0, sizeof *s);
    if (cap < 16) cap = 16;
    s->tree = calloc((size_t)cap + 1, sizeof *s->tree);
    s->owner = malloc(((size_t)cap + 1) * sizeof *s->owner);
    if (!s->tree || !s->owner) {
        wc_sdstack_free(s);
        return -1;
    }
    for (uint32_t i = 0; i <= cap; i++) s->owner[i] = WC_SD_NONE;
    s->cap = cap;
    s->next = 1;
    return 0;
}

void wc_sdstack_free(wc_sdstack *s)
{
    free(s->tree);
    free(s->owner);
    memset(s, 0, sizeof *s);
}

static inline void tree_add(wc_sdstack *s, uint32_t i, int32_t v)
{
    for (; i <= s->cap; i += i & (0u - i)) s->tree[i] = (uint32_t)((int32_t)s->tree[i] + v);
}

/* Renumbers the live stamps 1..live in their order (LRU order is preserved),
 * growing the arrays so that at least half of them is free afterwards. */
static int sdstack_compact(wc_sdstack *s, uint32_t *stamps)
{
    uint32_t cap = s->cap;
    if (s->live > cap / 2) {
        uint64_t want = (uint64_t)cap * 2;
        if (want > UINT32_MAX - 1) return -1;
        cap = (uint32_t)want;
    }
    uint32_t *owner = malloc(((size_t)cap + 1) * sizeof *owner);
    uint32_t *tree = calloc((size_t)cap + 1, sizeof *tree);
    if (!owner || !tree) {
        free(owner);
        free(tree);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t st = 1; st < s->next; st++) {
        uint32_t slot = s->owner[st];
        if (slot == WC_SD_NONE) continue;
        owner[++n] = slot;
        stamps[slot] = n;
    }
    for (uint32_t i = n + 1; i <= cap; i++) owner[i] = WC_SD_NONE;
    owner[0] = WC_SD_NONE;
    /* Linear-time Fenwick build: every stamp 1..n is marked. */
    for (uint32_t i = 1; i <= cap; i++) {
        if (i <= n) tree[i] += 1;
        uint32_t j = i + (i & (0u - i));
        if (j <= cap) tree[j] += tree[i];
    }
    free(s->owner);
    free(s->tree);
    s->owner = owner;
    s->tree = tree;
    s->cap = cap;
    s->next = n + 1;
    return 0;
}

int wc_sdstack_touch(wc_sdstack *s, uint32_t slot, uint32_t *stamps)
{
    uint32_t old = stamps[slot];
    if (old) {
        tree_add(s, old, -1);
        s->owner[old] = WC_SD_NONE;
        s->live--;
    }
    if (s->next > s->cap) {
        stamps[slot] = 0;
        if (sdstack_compact(s, stamps) < 0) return -1;
    }
    uint32_t st = s->next++;
    tree_add(s, st, 1);
    s->owner[st] = slot;
    s->live++;
    stamps[slot] = st;
    return 0;
}
