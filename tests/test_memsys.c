/*
 * test_memsys.c - the memory side's L2 bookkeeping shortcuts (memsys.c)
 * against what they stand for, on random traffic through wc_mem_access:
 *
 *   - an LRU L2's per-set list (lru_head/lru_next/lru_prev) holds the set's
 *     valid ways ordered by their LRU stamps, oldest first, so its front is
 *     the victim wc_repl_min_way would scan for;
 *   - the L2 MSHR pool's sorted ring holds the multiset a binary min-heap
 *     would: every DRAM fetch replaces the earliest free time by a later one,
 *     and a reference heap fed the same times (the one the ring gained)
 *     agrees on the minimum after every access.  Entries busy far ahead at
 *     the start make later times land mid-ring (DRAM's own times come in
 *     order, so traffic alone would only ever append).
 *
 *   - the tag lookup (hash bytes compared eight ways a step) finds a line
 *     exactly when a scan of the set's valid tags does (the hit count).
 *
 * Small L2s (4 sets of 8 ways, 4 MSHR entries) so sets fill, evict and the
 * MSHR pool wraps many times.
 */
#include <stdlib.h>
#include <string.h>

#include "cache/repl_impl.h"
#include "check.h"
#include "mem/addrdec.h"
#include "mem/mem.h"
#include "util/rng.h"
#include "warpcache/config.h"

static void setup(wc_mem *m, wc_config *cfg, const char *dl2)
{
    wc_err err = {{0}};
    wc_config_defaults(cfg);
    CHECK_EQ(wc_config_set(cfg, "gpgpu_cache:dl2", dl2, "t", &err), 0);
    memset(m, 0, sizeof *m);
    CHECK_EQ(wc_mem_init(m, cfg, &err), 0);
}

static wc_mem_req read_of(uint64_t addr, bool write)
{
    wc_mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.chunks = 0xf;
    r.line_log2 = 7;
    r.chunk_log2 = 5;
    r.flags = write ? WC_REQ_WRITE : 0;
    return r;
}

/* Every set's list: n_valid ways, each once, stamps strictly increasing
 * from the front, and the front is the min-stamp way of a full set. */
static void check_lists(const wc_l2 *l2)
{
    const wc_tag_array *ta = &l2->tags;
    for (uint32_t set = 0; set < ta->nsets; set++) {
        uint32_t n = l2->n_valid[set];
        if (!n) continue;
        const wc_line *s = ta->lines + (size_t)set * ta->assoc;
        const uint8_t *next = l2->lru_next + (size_t)set * ta->assoc;
        uint32_t w = l2->lru_head[set], seen = 0;
        uint64_t last = 0;
        do {
            CHECK(w < n);
            CHECK(seen == 0 || s[w].repl > last);
            last = s[w].repl;
            w = next[w];
            seen++;
        } while (w != l2->lru_head[set] && seen <= n);
        CHECK_EQ(seen, n);
        if (n == ta->assoc)
            CHECK_EQ((uint32_t)wc_repl_min_way(s, ta->assoc), (uint32_t)l2->lru_head[set]);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Reference min-heap of free times (the code before the ring). */
static void heap_replace_top(uint64_t *h, uint32_t n, uint64_t until)
{
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] < h[c]) c++;
        if (h[c] >= until) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = until;
}

static void test_lru_list_and_mshr_ring(void)
{
    wc_config cfg;
    wc_mem m;
    setup(&m, &cfg, "N:4:128:8,L:B:m:N:L,A:4:4,8");
    CHECK(m.l2[0].lru_head != NULL);
    uint32_t n_mshr = m.l2[0].n_mshr;
    CHECK_EQ(n_mshr, 4u);
    uint64_t *heap = calloc((size_t)m.n_l2 * n_mshr, sizeof *heap);
    uint64_t *before = calloc(n_mshr, sizeof *before), *after = calloc(n_mshr, sizeof *after);
    /* Entries busy far ahead (as if taken by fetches of another timeline),
     * so new times also land in the middle of the ring: a sorted array is
     * a valid heap, so both start alike. */
    for (uint32_t p = 0; p < m.n_l2; p++) {
        static const uint64_t start[4] = {0, 0, 3000, 900000};
        memcpy(m.l2[p].mshr_free, start, sizeof start);
        memcpy(heap + (size_t)p * n_mshr, start, sizeof start);
    }
    uint64_t rng = wc_rng_seed(7), now = 0;
    uint64_t evictions = 0, n_hits = 0;
    for (int i = 0; i < 20000; i++) {
        /* ~3 lines per way of the whole L2: hits, misses and evictions */
        uint64_t line = wc_rng_next(&rng) % (uint64_t)(3 * m.n_l2 * 4 * 8);
        bool write = wc_rng_next(&rng) % 4 == 0;
        wc_mem_req r = read_of(line << 7, write);
        now += wc_rng_next(&rng) % 3;
        uint64_t reads = m.c.dram_reads, hits = m.c.l2_hits;
        /* the reference lookup: a scan of the set's valid tags (the L2's
         * lines are always whole: reads fetch the line, writes never
         * allocate, so a present line hits) */
        uint64_t part_addr;
        uint32_t p0 = wc_addrdec_map(&m.addrdec, r.addr, &part_addr);
        const wc_l2 *l2r = &m.l2[p0];
        uint32_t set = wc_index_set(&l2r->tags.index, part_addr);
        bool present = false;
        for (uint32_t w = 0; w < l2r->n_valid[set]; w++)
            present |= l2r->tagv[(size_t)set * l2r->tags.assoc + w] == r.addr >> m.line_log2;
        uint64_t snap[64][4];
        CHECK(m.n_l2 <= 64);
        for (uint32_t p = 0; p < m.n_l2; p++)
            memcpy(snap[p], m.l2[p].mshr_free, n_mshr * sizeof(uint64_t));
        wc_mem_access(&m, 0, &r, r.chunks, now);
        CHECK_EQ(m.c.l2_hits, hits + present);
        n_hits += present;
        for (uint32_t p = 0; p < m.n_l2; p++) {
            const wc_l2 *l2 = &m.l2[p];
            check_lists(l2);
            /* the ring is sorted from its head */
            for (uint32_t k = 0; k < n_mshr; k++)
                after[k] = l2->mshr_free[(l2->mshr_head + k) % n_mshr];
            for (uint32_t k = 1; k < n_mshr; k++) CHECK(after[k - 1] <= after[k]);
            memcpy(before, snap[p], sizeof before[0] * n_mshr);
            qsort(before, n_mshr, sizeof *before, cmp_u64);
            uint64_t *h = heap + (size_t)p * n_mshr;
            if (memcmp(before, after, n_mshr * sizeof *after) != 0) {
                /* one fetch: the earliest time left, one time came in */
                CHECK_EQ(m.c.dram_reads, reads + 1);
                uint32_t k = 1, j = 0;
                uint64_t in = 0;
                while (j < n_mshr) { /* after = before[1..] + {in} */
                    if (k < n_mshr && before[k] == after[j]) {
                        k++;
                        j++;
                    } else {
                        in = after[j++];
                    }
                }
                CHECK(in >= before[0]);
                heap_replace_top(h, n_mshr, in);
            }
            CHECK_EQ(h[0], after[0]);
            uint64_t sorted[4];
            memcpy(sorted, h, sizeof sorted);
            qsort(sorted, n_mshr, sizeof *sorted, cmp_u64);
            CHECK(memcmp(sorted, after, sizeof sorted) == 0);
        }
    }
    for (uint32_t p = 0; p < m.n_l2; p++)
        for (uint32_t set = 0; set < m.l2[p].tags.nsets; set++)
            evictions += m.l2[p].n_valid[set] == m.l2[p].tags.assoc;
    CHECK(evictions > 0); /* full sets: the victim was read from the list */
    CHECK(m.c.dram_reads > 1000);
    CHECK(n_hits > 1000);
    free(heap);
    free(before);
    free(after);
    wc_mem_free(&m);
}

/* wc_ceil_cycle is ceil() for times from 0 to 2^64, on either side of 2^63
 * where it changes conversions: whole numbers stay, anything above one goes
 * to the next (2^51 + 0.5 is a double: its ulp there is 2^-1). */
static void test_ceil_cycle(void)
{
    CHECK_EQ(wc_ceil_cycle(0.0), 0u);
    CHECK_EQ(wc_ceil_cycle(0.25), 1u);
    CHECK_EQ(wc_ceil_cycle(1.0), 1u);
    CHECK_EQ(wc_ceil_cycle(1.5), 2u);
    CHECK_EQ(wc_ceil_cycle(2251799813685248.5), 2251799813685249ull);         /* 2^51 + 0.5 */
    CHECK_EQ(wc_ceil_cycle(9223372036854774784.0), 9223372036854774784ull);   /* 2^63 - 1024 */
    CHECK_EQ(wc_ceil_cycle(9223372036854775808.0), 9223372036854775808ull);   /* 2^63 */
    CHECK_EQ(wc_ceil_cycle(18446744073709549568.0), 18446744073709549568ull); /* 2^64 - 2048 */
}

/* Not LRU: no list, the policy's victim as before. */
static void test_no_list_without_lru(void)
{
    wc_config cfg;
    wc_mem m;
    setup(&m, &cfg, "N:4:128:8,F:B:m:N:L,A:4:4,8");
    CHECK(m.l2[0].lru_head == NULL);
    wc_mem_free(&m);
}

int main(void)
{
    RUN(test_lru_list_and_mshr_ring);
    RUN(test_no_list_without_lru);
    RUN(test_ceil_cycle);
    return check_summary("memsys");
}
