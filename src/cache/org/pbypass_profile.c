/*
 * pbypass_profile.c - Profiled-BYPASS's reference counts (see
 * pbypass_profile.h): an open-addressing hash table keyed by (kernel launch,
 * SM, line), the kernel-wide count under the SM number PB_ALL, and the L1
 * listener that fills it during the profiling run.
 */
#include <stdlib.h>

#include "cache/org/pbypass_profile.h"

#define PB_ALL 0xffffu /* the SM field of a kernel-wide entry */

typedef struct pb_entry {
    uint64_t line;
    uint32_t kernel;
    uint16_t sm;
    uint16_t used;
    uint32_t count;
} pb_entry;

struct wc_pbypass_profile {
    pb_entry *t;
    size_t mask, n; /* capacity - 1, entries used */
    uint64_t lines; /* kernel-wide entries */
    bool failed;
};

const char *wc_pbypass_filter_name(int filter)
{
    static const char *const names[WC_PB__FILTERS] = {"local", "global", "local+global"};
    return filter >= 0 && filter < WC_PB__FILTERS ? names[filter] : "?";
}

static size_t hash(uint32_t kernel, unsigned sm, uint64_t line)
{
    uint64_t h =
        line * 0x9e3779b97f4a7c15ull ^ ((uint64_t)kernel << 32 | sm) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    return (size_t)(h * 0x94d049bb133111ebull >> 17);
}

wc_pbypass_profile *wc_pbypass_profile_create(void)
{
    wc_pbypass_profile *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->t = calloc(1024, sizeof *p->t);
    if (!p->t) {
        free(p);
        return NULL;
    }
    p->mask = 1023;
    return p;
}

void wc_pbypass_profile_destroy(wc_pbypass_profile *p)
{
    if (!p) return;
    free(p->t);
    free(p);
}

/* The slot of the key, or the empty slot where it would go. */
static pb_entry *slot(const wc_pbypass_profile *p, uint32_t kernel, unsigned sm, uint64_t line)
{
    for (size_t i = hash(kernel, sm, line) & p->mask;; i = (i + 1) & p->mask) {
        pb_entry *e = &p->t[i];
        if (!e->used || (e->line == line && e->kernel == kernel && e->sm == sm)) return e;
    }
}

/* Doubles the table (kept at most half full, so probes stay short). */
static int grow(wc_pbypass_profile *p)
{
    size_t cap = 2 * (p->mask + 1);
    pb_entry *old = p->t, *t = calloc(cap, sizeof *t);
    if (!t) return -1;
    size_t old_cap = p->mask + 1;
    p->t = t;
    p->mask = cap - 1;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].used) *slot(p, old[i].kernel, old[i].sm, old[i].line) = old[i];
    free(old);
    return 0;
}

static int bump(wc_pbypass_profile *p, uint32_t kernel, unsigned sm, uint64_t line)
{
    if (2 * (p->n + 1) > p->mask + 1 && grow(p) < 0) {
        p->failed = true;
        return -1;
    }
    pb_entry *e = slot(p, kernel, sm, line);
    if (!e->used) {
        *e = (pb_entry){.line = line, .kernel = kernel, .sm = (uint16_t)sm, .used = 1};
        p->n++;
        p->lines += sm == PB_ALL;
    }
    if (e->count < UINT32_MAX) e->count++;
    return 0;
}

int wc_pbypass_profile_count(wc_pbypass_profile *p, uint32_t kernel, unsigned sm, uint64_t line)
{
    if (bump(p, kernel, sm & PB_ALL, line) < 0) return -1;
    return bump(p, kernel, PB_ALL, line);
}

bool wc_pbypass_profile_failed(const wc_pbypass_profile *p)
{
    return p->failed;
}

uint32_t wc_pbypass_local(const wc_pbypass_profile *p, uint32_t kernel, unsigned sm, uint64_t line)
{
    const pb_entry *e = slot(p, kernel, sm & PB_ALL, line);
    return e->used ? e->count : 0;
}

uint32_t wc_pbypass_global(const wc_pbypass_profile *p, uint32_t kernel, uint64_t line)
{
    const pb_entry *e = slot(p, kernel, PB_ALL, line);
    return e->used ? e->count : 0;
}

uint64_t wc_pbypass_lines(const wc_pbypass_profile *p)
{
    return p->lines;
}

bool wc_pbypass_decide(const wc_pbypass_profile *p, int filter, unsigned threshold, uint32_t kernel,
                       unsigned sm, uint64_t line)
{
    uint32_t n;
    if (filter == WC_PB_GLOBAL) {
        n = wc_pbypass_global(p, kernel, line);
    } else {
        n = wc_pbypass_local(p, kernel, sm, line);
        if (!n && filter == WC_PB_LOCAL_GLOBAL) n = wc_pbypass_global(p, kernel, line);
    }
    return n < threshold;
}

/* Every read the L1 took in (a reservation fail is presented again and
 * counted then): the "coalesced memory requests before they hit the L1D". */
static void on_access(void *ctx, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                      uint64_t now)
{
    if (o == WC_RESERVATION_FAIL || (req->flags & (WC_REQ_WRITE | WC_REQ_ATOMIC))) return;
    wc_pbypass_profile_count(ctx, wc_req_kernel(req), (unsigned)sm, req->addr >> req->line_log2);
}

wc_l1_listener wc_pbypass_recorder(wc_pbypass_profile *p)
{
    return (wc_l1_listener){.ctx = p, .on_access = on_access};
}
