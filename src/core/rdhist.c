/*
 * rdhist.c - the reuse-distance histogram of the stream reaching each SM's
 * L1 data store (see rdhist.h): one line map and one LRU stack per SM,
 * emptied when the SM sees a new kernel launch.
 */
#include <stdlib.h>
#include <string.h>

#include "core/rdhist.h"
#include "model/sdstack.h"
#include "warpcache/statreg.h"
#include "warpcache/stats.h"

typedef struct rd_sm {
    uint32_t kernel; /* the launch the stack belongs to */
    bool live;       /* map and stack allocated */
    wc_linemap map;
    wc_sdstack stack;
    uint32_t *stamp; /* per line slot */
    uint32_t cap;
} rd_sm;

struct wc_rdhist {
    unsigned n_sm;
    rd_sm *sm;
    uint64_t accesses, footprint, hist[WC_RD_BUCKETS];
    bool failed;
};

wc_rdhist *wc_rdhist_create(unsigned n_sm)
{
    wc_rdhist *h = calloc(1, sizeof *h);
    if (!h || !(h->sm = calloc(n_sm, sizeof *h->sm))) {
        free(h);
        return NULL;
    }
    h->n_sm = n_sm;
    return h;
}

static void sm_free(rd_sm *s)
{
    if (!s->live) return;
    wc_linemap_free(&s->map);
    wc_sdstack_free(&s->stack);
    free(s->stamp);
    s->stamp = NULL;
    s->cap = 0;
    s->live = false;
}

void wc_rdhist_destroy(wc_rdhist *h)
{
    if (!h) return;
    for (unsigned i = 0; i < h->n_sm; i++) sm_free(&h->sm[i]);
    free(h->sm);
    free(h);
}

/* An empty stack for `kernel`. */
static int sm_start(rd_sm *s, uint32_t kernel)
{
    sm_free(s);
    s->kernel = kernel;
    if (wc_linemap_init(&s->map, 1024) < 0) return -1;
    if (wc_sdstack_init(&s->stack, 1024) < 0) {
        wc_linemap_free(&s->map);
        return -1;
    }
    s->live = true;
    return 0;
}

/* Room for a stamp of `slot`. */
static int grow(rd_sm *s, uint32_t slot)
{
    if (slot < s->cap) return 0;
    uint32_t cap = s->cap ? 2 * s->cap : 1024;
    while (cap <= slot) cap *= 2;
    uint32_t *p = realloc(s->stamp, (size_t)cap * sizeof *p);
    if (!p) return -1;
    memset(p + s->cap, 0, (size_t)(cap - s->cap) * sizeof *p);
    s->stamp = p;
    s->cap = cap;
    return 0;
}

static void reference(wc_rdhist *h, rd_sm *s, uint64_t line)
{
    bool created;
    uint32_t slot = wc_linemap_get(&s->map, line, &created);
    if (slot == WC_SD_NONE || grow(s, slot) < 0) {
        h->failed = true;
        return;
    }
    h->accesses++;
    uint64_t d = wc_sdstack_distance(&s->stack, s->stamp[slot]);
    if (d == WC_SD_INF) /* a first reference in this kernel: the stacks start empty */
        h->footprint++;
    else
        h->hist[wc_rd_bucket(d)]++;
    if (wc_sdstack_touch(&s->stack, slot, s->stamp) < 0) h->failed = true;
}

static void on_access(void *ctx, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                      uint64_t now)
{
    if (o == WC_RESERVATION_FAIL || o == WC_BYPASSED) return; /* not in the data store */
    wc_rdhist *h = ctx;
    rd_sm *s = &h->sm[sm];
    uint32_t k = wc_req_kernel(req);
    if ((!s->live || s->kernel != k) && sm_start(s, k) < 0) {
        h->failed = true;
        return;
    }
    reference(h, s, req->addr >> req->line_log2);
}

wc_l1_listener wc_rdhist_listener(wc_rdhist *h)
{
    return (wc_l1_listener){.ctx = h, .on_access = on_access};
}

void wc_rdhist_add_to(const wc_rdhist *h, wc_kstats *k)
{
    k->rd_on = true;
    k->rd_accesses += h->accesses;
    k->rd_footprint += h->footprint;
    for (unsigned b = 0; b < WC_RD_BUCKETS; b++) k->rd_hist[b] += h->hist[b];
}

bool wc_rdhist_failed(const wc_rdhist *h)
{
    return h->failed;
}

/* The histogram's counters (warpcache/statreg.h): added to a snapshot by
 * wc_rdhist_add_to, summed and differenced like every counter. */
static const wc_stat_desc rd_stats[] = {
    {"l1_rd.accesses", "references", "references to the L1 data stores (-l1_rd_hist)",
     WC_STAT_KERNEL, 0, WC_KS(rd_accesses), WC_NONE, 1, false},
    {"l1_rd.footprint", "references", "first references of a line in a kernel, per SM",
     WC_STAT_KERNEL, 0, WC_KS(rd_footprint), WC_NONE, 1, false},
    {"l1_rd.hist", "references",
     "the other references by reuse distance (0, then [2^(k-1), 2^k); l1_rd.d*)", WC_STAT_KERNEL, 0,
     WC_KS(rd_hist), WC_NONE, WC_RD_BUCKETS, false},
    {0},
};
const wc_stat_group wc_stats_rd = {"reuse distances (-l1_rd_hist)", rd_stats};
WC_PLUGIN(stats, wc_stats_rd, 50);
